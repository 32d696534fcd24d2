from notation.cli import main_process

main_process()
