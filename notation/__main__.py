from notation.cli.main import main_process

main_process()
