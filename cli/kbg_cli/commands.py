"""The ``kbg`` command group as typer makes it, each command made when first looked up: a run makes only the
command it runs (typer reads every command's signature to make it), the help page all of them."""

from __future__ import annotations

from collections.abc import Iterator, MutableMapping
from typing import Any

import typer


def group(app: typer.Typer) -> Any:
    """``typer.main.get_command(app)``, whose commands typer makes when first looked up (:class:`Commands`)."""
    import copy

    bare = copy.copy(app)
    bare.registered_commands = []
    group = typer.main.get_command(bare)
    group.commands = Commands(app, {c.name or typer.main.get_command_name(c.callback.__name__): c
                                for c in app.registered_commands if c.callback is not None})
    return group


class Commands(MutableMapping[str, Any]):
    """The group's commands by name, in their order, each made by typer (as ``get_command`` makes it) when
    first looked up: a run makes only the one it runs, the help page all of them."""

    def __init__(self, app: typer.Typer, infos: dict[str, Any]) -> None:
        self._app = app
        self._infos: dict[str, Any] = infos
        self._made: dict[str, Any] = {}

    def __getitem__(self, name: str) -> Any:
        made = self._made.get(name)
        if made is None:
            made = self._made[name] = typer.main.get_command_from_info(
                self._infos[name], pretty_exceptions_short=self._app.pretty_exceptions_short,
                rich_markup_mode=self._app.rich_markup_mode)
        return made

    def __setitem__(self, name: str, command: Any) -> None:
        self._infos[name] = None
        self._made[name] = command

    def __delitem__(self, name: str) -> None:
        del self._infos[name]
        self._made.pop(name, None)

    def __iter__(self) -> Iterator[str]:
        return iter(self._infos)

    def __len__(self) -> int:
        return len(self._infos)
