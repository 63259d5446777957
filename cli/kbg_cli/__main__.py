"""``python -m kbg_cli`` runs the ``kbg`` command."""

from kbg_cli.entry import run

run()
