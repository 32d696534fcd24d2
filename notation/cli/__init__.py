"""The ``notation`` command line: one module per subcommand (``*_cmd.py``)."""
