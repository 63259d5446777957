"""The values that shell completion offers for ``kbg``'s arguments: games, editions, variants, player
counts, rule topics and ids, explain's topics and languages.

The value functions (:func:`games`, :func:`editions`...) are typer ``autocompletion`` callbacks, given
the context that click parsed from the command line so far (the game, edition and variants already
typed) and the word being completed; typer and click speak the shells' protocol (``_KBG_COMPLETE``, see
``kbg --show-completion SHELL``) and keep the values that start with that word. The app declares them
only in a run that the shell starts for a completion (``app._values``): no other run imports this
module.

The values come from the rule-data catalogue and the games' engines at run time, as the commands read
them, and no more is read than the answer needs: the game named on the line alone where there is one,
no ruleset built, and explain's topics from the index already built
(:func:`kbgrules.explain.store.topic_titles`). A completion never fails aloud: rule data that cannot be
read, or a game that is not known, offers nothing (or less).
"""

from __future__ import annotations

import re
from typing import Any

import typer

from . import RULE_TOPICS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from kbgrules.core.datafiles import Catalog, GameFiles

Offer = list[tuple[str, str]]  # (value, help), as typer takes them (typer reads the callbacks' annotations)

def plain_help() -> None:
    """Have typer hand each value's help to zsh and fish as it is written. kbg's help texts are plain
    (the app's ``rich_markup_mode=None``), but typer reads each one through rich's markup, which costs
    a completion some 100 ms (importing rich) and would eat a ``[...]`` in a title. Typer has no switch
    for this; where its hook is missing (another typer), nothing changes."""
    import typer._completion_classes as classes

    if callable(getattr(classes, "_sanitize_help_text", None)):
        classes._sanitize_help_text = _as_written


def _as_written(text: str) -> str:
    return text


TOPIC_HELP = {"components": "the components and their counts", "documents": "the sources the rules cite",
              "setup": "the setup per player count"}  # the topics of every game (browse.show)
WORD = r"[\w.+-]+"  # one word to every shell, unquoted: no space, quote, `:`, `=`, `$`...


def _word(name: str) -> str | None:
    """``name`` if it is one shell word, None where it would need quoting (an alias with a space: the
    game's id or another alias names the same)."""
    return name if re.fullmatch(WORD, name) else None


def _offer(items: Iterable[tuple[str, str, bool]], incomplete: str, aliases: bool = False) -> Offer:
    """The ``(name, help, is_alias)`` items whose name starts with the word typed, once each; an alias
    is offered where ``aliases`` is true, or where no other name starts with the word (``--edition 2n``
    gives ``2nd``, ``--edition`` alone only the editions' ids)."""
    out: dict[str, tuple[str, str, bool]] = {}
    for name, help_text, is_alias in items:
        word = _word(name)
        if word is None or not word.startswith(incomplete):
            continue
        seen = out.get(word.casefold())
        if seen is None or (seen[2] and not is_alias):  # one game's alias is another's id: the id's place
            out.pop(word.casefold(), None)
            out[word.casefold()] = (word, help_text, is_alias)
    if not aliases and any(not a for _, _, a in out.values()):
        return [(w, h) for w, h, a in out.values() if not a]
    return [(w, h) for w, h, _ in out.values()]


# --------------------------------------------------------------------------- the command line so far


class Line:
    """What the command line gives so far, and the rule data it names (read when a value needs it)."""

    def __init__(self, ctx: typer.Context) -> None:
        self.params = _params(ctx)
        from kbgrules.core.paths import rules_dirs_from_env

        self.dirs = [*rules_dirs_from_env(), *(ctx.find_root().params.get("rules") or [])]
        if ctx.parent is not None:  # a command's own --rules (explain's)
            self.dirs += [d for d in self.params.get("rules") or [] if isinstance(d, str)]

    def typed(self, name: str) -> str | None:
        """The value of parameter ``name`` on the line (None if not given)."""
        value = self.params.get(name)
        return value if isinstance(value, str) and value else None

    def words(self, name: str) -> list[str]:
        """The values of a repeatable parameter (``--variant``) on the line."""
        return [v for v in self.params.get(name) or () if isinstance(v, str)]

    def catalog(self) -> Catalog | None:
        """Every game, with the user's rule folders (their files read, not checked: that is the
        command's to do, and slow); without them where they cannot be read, and without the plug-in
        games where those cannot."""
        from kbgrules.core.data import catalog
        from kbgrules.errors import KbgError

        if self.dirs:
            try:
                return catalog(self.dirs, checked=False)
            except Exception:  # a broken file, unchecked, may fail in any way: the rest still completes
                pass
        for plugins in (True, False):
            try:
                return catalog(with_plugins=plugins)
            except KbgError:
                continue
        return None

    def games(self) -> list[Game]:
        cat = self.catalog()
        return [] if cat is None else [Game(gf) for _, gf in sorted(cat.games.items())]

    def game(self) -> GameFiles | None:
        """The files of the game named on the line (``GAME``, or ``--game``), read alone where the
        catalogue allows; None where none is named or it names no game."""
        name = self.typed("game")
        if name is None:
            return None
        from kbgrules.core.data import catalog_for
        from kbgrules.core.effective import knows_game, resolve_game
        from kbgrules.errors import KbgError

        try:
            cat = self.catalog() if self.dirs else catalog_for(name)
        except KbgError:  # a plug-in game that cannot be read: every other game
            cat = self.catalog()
        return cat.games[resolve_game(cat, name)] if cat is not None and knows_game(cat, name) else None


def _params(ctx: typer.Context) -> dict[str, Any]:
    """``ctx.params``, and the arguments typed before an option whose value is being completed: click's
    parser stops at such an option (its value is not there yet) and leaves the arguments before it
    unread, in ``ctx.args``; they are read again here, alone."""
    params = dict(ctx.params)
    if ctx.args and ctx.parent is not None and ctx.info_name is not None:
        again = ctx.command.make_context(ctx.info_name, list(ctx.args), parent=ctx.parent, resilient_parsing=True)
        for key, value in again.params.items():
            if params.get(key) in (None, ()):
                params[key] = value
    return params


class Overlay:
    """An edition or variant, as completion needs it."""

    __slots__ = ("aliases", "conflicts", "default", "editions", "id", "option", "players", "title")

    def __init__(self, oid: str, data: dict[str, Any], default: bool = False) -> None:
        self.id, self.default = oid, default
        self.title = str(data.get("title", oid))
        self.aliases = [str(a) for a in data.get("aliases") or ()]
        self.option = bool(data.get("option", False))
        self.editions = [str(e) for e in data.get("editions") or ()]
        self.conflicts = [str(c) for c in data.get("conflicts") or ()]
        players = data.get("players")
        self.players = [int(p) for p in players] if isinstance(players, list) else []


class Game:
    """A game as completion needs it, read from its catalogue files as
    :func:`kbgrules.core.build.game_info` reads them (in the same order), without the model's classes,
    which completion need not import."""

    def __init__(self, gf: GameFiles) -> None:
        data = gf.game.data
        self.name = str(data.get("name", data.get("id")))
        self.min_players, self.max_players = int(data["players"]["min"]), int(data["players"]["max"])
        base = data["base_edition"]
        self.editions = [Overlay(str(base["id"]), base, default=True),
                         *(Overlay(eid, f.data) for eid, f in gf.editions.items())]
        self.variants = sorted((Overlay(vid, f.data) for vid, f in gf.variants.items()),
                               key=lambda v: (v.option, v.id))


def _named(info: Game, what: str, name: str | None) -> str | None:
    """The id of ``info``'s edition or variant (``what``) that ``name`` names, as the loader reads names."""
    from kbgrules.core.datafiles import normalize

    if name is None:
        return None
    key = normalize(name)
    for o in info.editions if what == "edition" else info.variants:
        if any(normalize(n) == key for n in (o.id, *o.aliases)):
            return o.id
    return None


def _safely(values: Callable[[Line, str], Offer], ctx: typer.Context, incomplete: str) -> Offer:
    """``values(line, incomplete)``, or nothing where that fails: a completion prints no error into
    the command line being typed (``KBG_DEBUG=1`` lets the error through)."""
    try:
        return values(Line(ctx), incomplete)
    except Exception:
        from kbgrules.errors import debug

        if debug():
            raise
        return []


# --------------------------------------------------------------------------- the values


def _games(line: Line, incomplete: str, only: Callable[[GameFiles], bool] | None = None) -> Offer:
    cat = line.catalog()
    if cat is None:
        return []
    items = []
    for gid, gf in sorted(cat.games.items()):
        if only is None or only(gf):
            data = gf.game.data
            name = str(data.get("name", gid))
            items += [(gid, name, False), *((str(a), name, False) for a in data.get("aliases") or ())]
    return _offer(items, incomplete, aliases=True)


def games(ctx: typer.Context, incomplete: str) -> Offer:
    """Every game's id and aliases (``kbg setup <TAB>``)."""
    return _safely(_games, ctx, incomplete)


def _scores(gf: GameFiles) -> bool:
    from kbgrules.core.registry import engine_for, scorer
    from kbgrules.errors import KbgError

    try:
        return scorer(engine_for(gf.game.data)) is not None
    except KbgError:
        return False


def scoring_games(ctx: typer.Context, incomplete: str) -> Offer:
    """The games whose engine scores a position (``kbg score --game <TAB>``)."""
    return _safely(lambda line, word: _games(line, word, _scores), ctx, incomplete)


def _editions(line: Line, incomplete: str) -> Offer:
    gf = line.game()
    infos = [Game(gf)] if gf is not None else [] if line.typed("game") else line.games()
    items = []
    for info in infos:
        where = "" if gf is not None else f"{info.name}: "
        for e in info.editions:
            title = where + e.title + (" (default)" if e.default else "")
            items += [(e.id, title, False), *((a, title, True) for a in e.aliases)]
    return _offer(items, incomplete)


def editions(ctx: typer.Context, incomplete: str) -> Offer:
    """The editions of the game on the line (of every game where none is named): ids, and the aliases
    that start with the word typed where no id does."""
    return _safely(_editions, ctx, incomplete)


def _chosen(line: Line, info: Game) -> list[str]:
    """The ids of the variants already on the line."""
    return [vid for v in line.words("variant") if (vid := _named(info, "variant", v)) is not None]


def _variants(line: Line, incomplete: str) -> Offer:
    gf = line.game()
    if gf is None:
        infos = [] if line.typed("game") else line.games()
        return _offer(((v.id, f"{i.name}: {v.title}", False) for i in infos for v in i.variants), incomplete)
    info = Game(gf)
    edition = _named(info, "edition", line.typed("edition")) or info.editions[0].id
    chosen = _chosen(line, info)
    conflicts = {c for v in info.variants if v.id in chosen for c in v.conflicts}
    players = line.params.get("players")
    items = []
    for v in info.variants:
        if (v.id in chosen or v.id in conflicts or set(v.conflicts) & set(chosen)
                or (v.editions and edition not in v.editions)
                or (isinstance(players, int) and v.players and players not in v.players)):
            continue
        items += [(v.id, v.title, False), *((a, v.title, True) for a in v.aliases)]
    return _offer(items, incomplete)


def variants(ctx: typer.Context, incomplete: str) -> Offer:
    """The variants of the game on the line that can still be added: not given yet, for the edition
    given (or the default one), in no conflict with those given, for the player count given."""
    return _safely(_variants, ctx, incomplete)


def _players(line: Line, incomplete: str) -> Offer:
    gf = line.game()
    if gf is None:
        return []
    info = Game(gf)
    counts = set(range(info.min_players, info.max_players + 1))
    chosen = _chosen(line, info)
    for v in info.variants:
        if v.id in chosen and v.players:
            counts &= set(v.players)
    return _offer(((str(n), "players", False) for n in sorted(counts)), incomplete)


def player_counts(ctx: typer.Context, incomplete: str) -> Offer:
    """The player counts of the game on the line (and of the variants given)."""
    return _safely(_players, ctx, incomplete)


def _rule_topics(line: Line, incomplete: str) -> Offer:
    from kbgrules.core.effective import resolve_files
    from kbgrules.core.registry import engine_for
    from kbgrules.errors import KbgError

    gf = line.game()
    if gf is None:
        return []
    try:  # the rules of the edition and variants given: their data merged, no ruleset built
        tree = resolve_files(gf, line.typed("edition"), line.words("variant"), None, validate=False).tree
    except KbgError:  # a name the command will refuse: the default edition's rules meanwhile
        tree = resolve_files(gf, None, (), None, validate=False).tree
    items = []
    try:
        for t in engine_for(gf.game.data).reference_topics:
            table = f"the table of {t.name}"
            items += [(t.name, table, False), *((a, table, True) for a in t.aliases)]
    except KbgError:  # no engine to play it: the topics of every game and the rules still are
        pass
    items += [(t, TOPIC_HELP.get(t, "topic"), False) for t in RULE_TOPICS]
    items += [(str(rid), str((r or {}).get("title", "")), False) for rid, r in (tree.get("rules") or {}).items()]
    return _offer(items, incomplete)


def rule_topics(ctx: typer.Context, incomplete: str) -> Offer:
    """``kbg rules GAME <TAB>``: the game's own topics, those of every game, and its rule ids (with the
    edition and variants given), each rule's title as help."""
    return _safely(_rule_topics, ctx, incomplete)


def _explain_topics(line: Line, incomplete: str) -> Offer:
    if line.params.get("query"):  # a question goes on in words: only its first word may be an id
        return []
    from kbgrules.explain.store import topic_titles

    return _offer(((eid, title, False) for eid, title in topic_titles(line.typed("game"), line.dirs)), incomplete)


def explain_topics(ctx: typer.Context, incomplete: str) -> Offer:
    """``kbg explain <TAB>``: the ids of explain's entries (of ``--game``'s where it is given), their
    titles as help, from the index already built."""
    return _safely(_explain_topics, ctx, incomplete)


def _languages(line: Line, incomplete: str) -> Offer:
    from kbgrules.explain.text import LANG_NAMES

    return _offer(((code, name, False) for code, name in LANG_NAMES.items()), incomplete)


def languages(ctx: typer.Context, incomplete: str) -> Offer:
    """The languages explain answers in (``--lang``)."""
    return _safely(_languages, ctx, incomplete)
