"""The ``kbg`` command-line interface (typer + rich) over the kbgrules library."""
