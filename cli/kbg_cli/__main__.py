"""``python -m kbg_cli`` runs the ``kbg`` command."""

from kbg_cli.app import run

run()
