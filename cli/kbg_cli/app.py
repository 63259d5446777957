"""The ``kbg`` command: list games, print setup sheets, browse rules.

Exit codes: 0 success, 1 rule violations (``kbg check``), 2 usage or input errors.
"""

# (no `from __future__ import annotations`: typer would evaluate every annotation's text on each run)
import os
import sys
from collections.abc import Sequence
from functools import cache
from typing import Annotated, Any

import typer
from typer.core import TyperCommand, TyperGroup

import kbgrules
from kbgrules.errors import KbgError, debug

from . import RULE_TOPICS, render

EXIT_OK, EXIT_VIOLATIONS, EXIT_USAGE = 0, 1, 2


# Click's error base class, whichever click typer uses (typer 0.26 carries its own copy as typer._click).
ClickException: type[Exception] = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException")


class KbgGroup(TyperGroup):
    """Turns every usage error and KbgError into one line on stderr and exit code 2."""

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True, **extra: Any) -> Any:
        _state["rules_dirs"] = []  # until the callback reads this run's (a test runs many in one process)
        if os.environ.get(COMPLETE_VAR):
            from .complete import plain_help

            plain_help()
        try:
            rv = super().main(args=args, prog_name=prog_name or "kbg", complete_var=complete_var,
                              standalone_mode=False, **extra)
            code = rv if isinstance(rv, int) else EXIT_OK
            if code == 130:  # typer turns Ctrl-C into a silent exit code 130
                render.error("aborted")
        except typer.Exit as exc:
            code = exc.exit_code
        except typer.Abort:
            render.error("aborted")
            code = 130
        except KbgError as exc:
            for line in exc.lines():
                render.error(line)
            code = EXIT_USAGE
        except BrokenPipeError:
            render.reader_gone()
            code = EXIT_OK
        except ClickException as exc:  # click's own words, on one line
            ctx = getattr(exc, "ctx", None)
            if type(exc).__name__ == "NoArgsIsHelpError" and ctx is not None:  # `kbg` alone (click 8.2+)
                sys.stdout.write(ctx.get_help() + "\n")
                code = EXIT_OK
            else:
                message = " ".join(exc.format_message().split())  # type: ignore[attr-defined]
                render.error(f"error usage: {message}")
                code = EXIT_USAGE
        except Exception as exc:
            if debug():
                raise
            kind = "io" if isinstance(exc, OSError) else "internal"
            render.error(f"error {kind}: {type(exc).__name__}: {exc} (set KBG_DEBUG=1 for a traceback)")
            code = EXIT_USAGE
        if standalone_mode:
            sys.exit(code)
        return code

    def format_help(self, ctx: Any, formatter: Any) -> None:
        _fill_help(self, "kbg")
        super().format_help(ctx, formatter)

    def invoke(self, ctx: Any) -> Any:
        """A command run; a reader that goes away (``kbg check DIR | head``) ends it quietly with exit
        code 0 (click's own handler, around this, would exit with 1)."""
        try:
            return super().invoke(ctx)
        except BrokenPipeError:
            render.reader_gone()
            raise typer.Exit(EXIT_OK) from None


class KbgCommand(TyperCommand):
    """A command whose help names the installed games (:func:`_fill_help`)."""

    def format_help(self, ctx: Any, formatter: Any) -> None:
        _fill_help(self, self.name or "")
        super().format_help(ctx, formatter)


GAMES_EXAMPLES = "{examples}"  # in an epilog: the installed games' own examples for the page, in that place
# (placeholders go in a command's help, its epilog and its arguments' help, never in an option's: shell
# completion shows an option's help as written)


def _examples(*commands: str) -> str:
    """A help page's closing examples (``\\b``: click keeps the lines as written); GAMES_EXAMPLES
    stands for those of the installed games."""
    return "\b\nExamples:\n" + "\n".join("  " + c for c in commands)


def _fill_help(command: Any, page: str) -> None:
    """Write the installed games into ``command``'s help texts, which name them by placeholders:
    ``{names}`` (the games' names), ``{games}`` (ids and first aliases), ``{topics}`` (each game's own
    topics of ``kbg rules``), ``{scoring}`` (what ``kbg score`` reads, per game that scores) and
    ``{examples}`` (the games' example lines for help page ``page``, from their ``game.yaml``). The
    catalogue is read here, only when a help page is shown, so that no other run pays for it."""
    from kbgrules.core.paths import rules_dirs_from_env

    # the main page is shown before the callback reads --rules: KBG_RULES's folders only
    facts = _help_facts(tuple(rules_dirs_from_env() if page == "kbg" else _dirs()))

    def fill(text: str | None) -> str | None:
        if not text:
            return text
        lines = facts["examples"].get(page, [])
        text = text.replace("  " + GAMES_EXAMPLES + "\n", "".join(f"  {x}\n" for x in lines))
        text = text.replace("  " + GAMES_EXAMPLES, "\n".join(f"  {x}" for x in lines))
        for key in ("names", "games", "topics", "scoring"):
            text = text.replace("{" + key + "}", facts[key])
        return text

    command.help, command.epilog = fill(command.help), fill(command.epilog)
    for param in command.params:
        if isinstance(getattr(param, "help", None), str):
            param.help = fill(param.help)


@cache
def _help_facts(rules_dirs: tuple[str, ...]) -> dict[str, Any]:
    from kbgrules.core.registry import engine_for, scorer

    try:
        games = kbgrules.games(rules_dirs)
        loaded = [kbgrules.load(g.id, rules_dirs=rules_dirs) for g in games]
        engines = [engine_for(rs.data) for rs in loaded]
    except KbgError:  # rule data that cannot be read: the help still shows, without the games
        return {"names": "see kbg list", "games": "see kbg list", "topics": "see kbg list",
                "scoring": "The games that do: see kbg list", "examples": {}}
    examples: dict[str, list[str]] = {}
    for rs in loaded:
        for page, lines in (rs.data.get("examples") or {}).items():
            examples.setdefault(page, []).extend(lines)
    scorers = [(g, s) for g, e in zip(games, engines, strict=True) if (s := scorer(e)) is not None]
    return {
        "names": ", ".join(g.name for g in games),
        "games": ", ".join(g.id + (f" ({g.aliases[0]})" if g.aliases else "") for g in games),
        "topics": "; ".join(f"{g.name}: {', '.join(t.name for t in e.reference_topics)}"
                            for g, e in zip(games, engines, strict=True) if e.reference_topics) or "none",
        "scoring": "; ".join(f"{g.name} reads {s.position_format.help}" for g, s in scorers) or "No game "
                   "installed scores positions",
        "examples": examples,
    }

app = typer.Typer(
    cls=KbgGroup,
    help="Rules reference and rule checker for board games ({names}).",
    add_completion=True,  # --install-completion and --show-completion for bash, zsh, fish and PowerShell
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
    epilog=_examples(GAMES_EXAMPLES, "kbg check game.log", "kbg COMMAND --help"),
)

_state: dict[str, list[str]] = {"rules_dirs": []}


def _version(ctx: typer.Context, value: bool) -> None:
    if value and not ctx.resilient_parsing:  # not while the shell asks for completions
        from kbgrules.core.compiled import build

        sys.stdout.write(f"kbg {kbgrules.__version__} ({build()})\n")  # kbg 0.1.0 (pure Python)
        raise typer.Exit(EXIT_OK)


@app.callback()
def _main(
    rules: Annotated[list[str] | None, typer.Option(
        "--rules", metavar="DIR",
        help="Add a directory (or file) of your own rule YAML; repeatable. Also read from KBG_RULES "
             "(paths separated by ':').")] = None,
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                          help="Print the version and exit.")] = False,
) -> None:
    from kbgrules.core.paths import rules_dirs_from_env

    _state["rules_dirs"] = [*rules_dirs_from_env(), *(rules or [])]


def _dirs() -> list[str]:
    return _state["rules_dirs"]


COMPLETE_VAR = "_KBG_COMPLETE"  # set by a shell's completion script when it asks kbg for values


def _values(name: str) -> Any:
    """``complete.NAME``, the values shell completion offers for a parameter, in a run that the shell
    starts to complete a word; None in any other: typer inspects every callback as it builds the
    command, a cost (and an import) that no other run need pay."""
    if not os.environ.get(COMPLETE_VAR):
        return None
    from . import complete

    return getattr(complete, name)


# the values completed (complete.py): what the catalogue and the engines hold, for the game on the line
GameArg = Annotated[str, typer.Argument(metavar="GAME", help="Game id or alias: {games}.",
                                        autocompletion=_values("games"))]
EditionOpt = Annotated[str | None, typer.Option("--edition", "-e", help="Edition (default: the game's default).",
                                                autocompletion=_values("editions"))]
VariantOpt = Annotated[list[str] | None, typer.Option("--variant", "-v", metavar="VARIANT",
                                                      help="Variant to apply; repeatable.",
                                                      autocompletion=_values("variants"))]
PlayersOpt = Annotated[int, typer.Option("--players", "-p", help="Number of players.",
                                         autocompletion=_values("player_counts"))]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON for tools.")]
HtmlOpt = Annotated[str | None, typer.Option("--html", metavar="FILE", help="Also write the games as one "
                                             "self-contained HTML page (verdict, the log with each problem at its "
                                             "line and the rule it breaks, the games' pictures and charts) to FILE.")]



def _no_empty_path(paths: list[str], hint: str = "LOG") -> None:
    if any(p == "" for p in paths):  # '' would be the current directory to pathlib
        raise typer.BadParameter("an empty path names no file", param_hint=hint)


def _output_path(path: str, hint: str) -> None:
    """A path kbg writes to: neither empty nor holding a NUL (which no file name can)."""
    if not path or "\x00" in path:
        raise typer.BadParameter("an empty path names no file" if not path else "a path cannot hold a NUL "
                                 "character", param_hint=hint)


@app.command("list", cls=KbgCommand, epilog=_examples(
    "kbg list",
    "kbg list --json",
))
def list_cmd(as_json: JsonOpt = False) -> None:
    """List the games, their editions and variants (defaults marked)."""
    infos = kbgrules.games(_dirs())
    if as_json:
        render.print_json({"kbg_json": 1, "games": [
            {"id": g.id, "name": g.name, "aliases": list(g.aliases),
             "players": {"min": g.min_players, "max": g.max_players},
             "editions": [_overlay_json(e) for e in g.editions],
             "variants": [_overlay_json(v) for v in g.variants]}
            for g in infos]})
        return
    doc = render.Doc()
    for g in infos:
        doc.heading(f"{g.name} ({g.id}) - {g.min_players} to {g.max_players} players")
        doc.para("aliases: " + ", ".join(g.aliases))
        t = render.Table("Editions", ["id", "", "title"])
        for e in g.editions:
            t.add(e.id, "default" if e.default else "", e.title)
        doc.table(t)
        t = render.Table("Variants", ["id", "", "title"])
        for v in g.variants:
            note = "option" if v.option else ""
            if v.players:
                note = " ".join(filter(None, [note, f"{'/'.join(map(str, v.players))}p"]))
            t.add(v.id, note, f"{v.title}: {v.summary}")
        doc.table(t)
    doc.show()


def _overlay_json(o: "kbgrules.OverlayInfo") -> dict[str, Any]:
    return {"id": o.id, "title": o.title, "aliases": list(o.aliases), "default": o.default,
            "option": o.option, "players": list(o.players) if o.players else None, "summary": o.summary}


@app.command(cls=KbgCommand, epilog=_examples(GAMES_EXAMPLES))
def setup(
    game: GameArg,
    players: PlayersOpt,
    edition: EditionOpt = None,
    variant: VariantOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Print the setup sheet for GAME with N players."""
    from kbgrules import setup_sheet

    rs = kbgrules.load(game, edition=edition, variants=variant or [], players=players, rules_dirs=_dirs())
    sheet = setup_sheet(rs)
    if as_json:
        render.print_json(sheet.to_json())
        return
    doc = render.Doc()
    doc.heading(f"{sheet.game_name} setup for {sheet.players} players - {sheet.edition_title}")
    doc.para(sheet.summary + ".", "bold")
    for section in sheet.sections:
        counted = any(item.count is not None for item in section.items)
        t = render.Table(section.title, [], numeric=[0] if counted else [])
        for item in section.items:
            if counted:
                t.add("" if item.count is None else item.count, item.text)
            else:
                t.add(item.text)
        doc.table(t)
    if sheet.rules:
        doc.para("Rules: " + ", ".join(sheet.rules) + "  (kbg rules " + sheet.game + " ID)")
    doc.show()




@app.command(cls=KbgCommand, epilog=_examples(GAMES_EXAMPLES))
def rules(
    game: GameArg,
    topic: Annotated[str | None, typer.Argument(
        help="A rule id (as `kbg rules GAME` lists them), a part of one or a word, one of: "
             + ", ".join(RULE_TOPICS) + ", or a topic of the game's own ({topics}).",
        autocompletion=_values("rule_topics"))] = None,
    edition: EditionOpt = None,
    variant: VariantOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Browse GAME's rule statements and component lists."""
    from . import browse

    rs = kbgrules.load(game, edition=edition, variants=variant or [], rules_dirs=_dirs())
    browse.show(rs, topic, as_json)


@app.command(cls=KbgCommand, short_help="Replay game logs: the first rule violation, and who won.", epilog=_examples(
    "kbg check game.log",
    "kbg check logs/ --quiet",
    "kbg check --json game.log",
    "kbg check -j 0 --summary corpus/",
    "kbg check game.log --html report.html",
    GAMES_EXAMPLES,
))
def check(
    paths: Annotated[list[str], typer.Argument(metavar="LOG...", help="Log files, directories (every *.log "
                                               "inside) or - for standard input.")],
    as_json: JsonOpt = False,
    jobs: Annotated[int | None, typer.Option("--jobs", "-j", min=0, help="Worker processes (0: one per core; "
                                             "default: one per core from 16 files on, else 1).")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Only the diagnostics and a closing count, "
                                        "no standings.")] = False,
    summary: Annotated[bool, typer.Option("--summary", help="Only the closing count of games, legal games, "
                                          "violations and input errors.")] = False,
    dask: Annotated[str | None, typer.Option("--dask", metavar="ADDRESS", help="Check on the Dask cluster whose "
                                             "scheduler is at ADDRESS (needs kbgrules[dask]; the logs must be "
                                             "readable by the workers at the same paths).")] = None,
    turns: Annotated[bool, typer.Option("--turns", help="With --json: add each game's state at the end of every "
                                        "turn or round (as the game counts its steps).")] = False,
    html: HtmlOpt = None,
) -> None:
    """Replay game logs: report syntax errors, the first rule violation, and who won.

    Files are checked one by one (or on several cores) and each verdict is written as soon as it is
    known, so a corpus of any size runs in steady memory.
    Exit code 0 if every game is legal, 1 if a game breaks a rule, 2 if an input cannot be read or parsed.
    """
    from kbgrules.core.logfile import input_files

    from .play import run_check

    _no_empty_path(paths)
    if turns and dask is not None:
        raise typer.BadParameter("--turns checks in this process: it does not go with --dask", param_hint="--turns")
    files = input_files(paths)  # once a run: the guard below and the check read the same files
    if html is not None:
        _html_target(html, paths, files)
        if dask is not None:
            raise typer.BadParameter("--html checks in this process: it does not go with --dask", param_hint="--html")
    raise typer.Exit(run_check(files, _dirs(), as_json, jobs=jobs, quiet=quiet, summary=summary, dask=dask,
                               turns=turns, html=html))


def _html_target(html: str, paths: list[str], files: list[str]) -> None:
    """The page is never written over an input (``paths`` as given, ``files`` as they expand), nor to an
    empty name."""
    import os

    _output_path(html, "--html")
    target = os.path.realpath(html)
    if html == "-" or any(p != "-" and "\x00" not in p and os.path.realpath(p) == target for p in [*paths, *files]):
        raise typer.BadParameter(f"{html!r} is an input: the page goes to a file of its own", param_hint="--html")


@app.command(cls=KbgCommand, short_help="Show games turn by turn or round by round.", epilog=_examples(
    "kbg show game.log",
    GAMES_EXAMPLES,
    "kbg show game.log --html game.html",
))
def show(
    paths: Annotated[list[str], typer.Argument(metavar="LOG...", help="Log files, directories or - for stdin.")],
    html: HtmlOpt = None,
) -> None:
    """Show games turn by turn or round by round (as each game counts its steps), then the standings."""
    from kbgrules.core.logfile import input_files

    from .play import run_show

    _no_empty_path(paths)
    files = input_files(paths)
    if html is not None:
        _html_target(html, paths, files)
    raise typer.Exit(run_show(files, _dirs(), html))


@app.command(cls=KbgCommand, short_help="Score a position of a game written as text.",
             epilog=_examples(GAMES_EXAMPLES))
def score(
    position: Annotated[str, typer.Argument(metavar="FILE", help="The position as the game writes it (or - for "
                                            "stdin).")],
    game: Annotated[str | None, typer.Option("--game", "-g", metavar="GAME", help="The game whose rules score FILE "
                                             "(default: the one installed game that scores positions).",
                                             autocompletion=_values("scoring_games"))] = None,
    edition: EditionOpt = None,
    variant: VariantOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Score a position written as text, by the rules of a game that scores positions. {scoring}."""
    from .play import run_score

    _no_empty_path([position], "FILE")
    rs = kbgrules.load(_scoring_game(game), edition=edition, variants=variant or [], rules_dirs=_dirs())
    raise typer.Exit(run_score(position, rs, as_json))


def _scoring_game(game: str | None) -> str:
    """The game whose rules score ``kbg score``'s position: ``game`` if its engine scores positions,
    else (no ``--game``) the one installed game whose engine does."""
    from kbgrules.core.registry import engine_of, scorer

    if game is not None:
        engine = engine_of(game, _dirs())
        if scorer(engine) is not None:
            return game
    able = []
    for g in kbgrules.games(_dirs()):
        try:
            if scorer(engine_of(g.id, _dirs())) is not None:
                able.append(g.id)
        except KbgError:  # a game whose engine cannot be loaded scores nothing
            continue
    which = "the games that do: " + ", ".join(able) if able else "no game installed scores a position"
    if game is not None:
        raise typer.BadParameter(f"{engine.game_id} scores no position; {which}", param_hint="--game")
    if len(able) != 1:
        raise typer.BadParameter(f"name the game whose rules score FILE; {which}", param_hint="--game")
    return able[0]


@app.command(cls=KbgCommand, short_help="Write a random legal game as a log.", epilog=_examples(GAMES_EXAMPLES))
def simulate(
    game: GameArg,
    players: PlayersOpt,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Random seed: the same seed gives the same game.")] = 0,
    edition: EditionOpt = None,
    variant: VariantOpt = None,
    output: Annotated[str | None, typer.Option("--output", "-o", help="Write the log here instead of stdout.")]
    = None,
) -> None:
    """Write a random legal game as a log: every move, roll and decision drawn at random among the legal
    ones by the game's simulator."""
    from .play import run_simulate

    if output is not None:
        _output_path(output, "--output")
    raise typer.Exit(run_simulate(game, players, seed, edition, variant or [], _dirs(), output))


@app.command(cls=KbgCommand, short_help="Write the rules reference as static pages, for reading offline.",
             epilog=_examples(
    "kbg site site/",
    "kbg --rules house-rules site house-site/",
))
def site(
    outdir: Annotated[str, typer.Argument(metavar="OUTDIR", help="The folder to write (created if needed; the "
                                          "pages of an earlier run are replaced).")],
) -> None:
    """Write the rules reference of every game ({names}) into OUTDIR as static pages that need no server
    and no network: rules of every edition and variant, FAQ, each game's own tables ({topics}),
    components, setup by player count, the glossary in six languages, and a search box that answers as
    kbg explain does.
    Open OUTDIR/index.html in a browser (a phone too: copy the folder)."""
    from .startup import started
    from .web.site import build

    started()
    _output_path(outdir, "OUTDIR")
    written = build(outdir, _dirs())
    render.error(f"wrote {len(written)} files to {outdir}: open {outdir.rstrip('/')}/index.html in a browser")


@app.command(cls=KbgCommand, short_help="Explain a rule, a piece or a component, from words or a question.",
             epilog=_examples(GAMES_EXAMPLES))
def explain(
    query: Annotated[list[str] | None, typer.Argument(metavar="[QUERY]...", show_default=False, help="A rule id, a "
                                                      "word, the name of a piece or component, or a whole "
                                                      "question.",
                                                      autocompletion=_values("explain_topics"))] = None,
    game: Annotated[str | None, typer.Option("--game", "-g", metavar="GAME",
                                             help="Only this game (an id or alias: kbg list).",
                                             autocompletion=_values("games"))] = None,
    edition: Annotated[str | None, typer.Option("--edition", "-e", metavar="EDITION",
                                                help="Show this edition's reading where editions differ.",
                                                autocompletion=_values("editions"))] = None,
    lang: Annotated[str | None, typer.Option("--lang", metavar="LANG", help="Answer in this language (en, ko, fr, "
                                             "vi, de, es) where the text is written; default: the question's.",
                                             autocompletion=_values("languages"))] = None,
    as_json: JsonOpt = False,
    debug: Annotated[bool, typer.Option("--debug", help="Show how the question was read and why each entry "
                                        "ranked where it did.")] = False,
    rules: Annotated[list[str] | None, typer.Option("--rules", metavar="DIR", help="Add your own rule data; "
                                                    "repeatable. Also KBG_RULES.")] = None,
) -> None:
    """Explain a rule, a game piece or a component, from a rule id, a word, a name or a whole question, in
    English, Korean, French, Vietnamese, German or Spanish. With no QUERY, list every topic.
    \f
    `kbg explain ...` runs without importing typer (explain_cmd.run); this declaration gives its help,
    completion and the runs that start with a global option (`kbg --rules DIR explain ...`).
    """
    from .explain_cmd import Args, run_args

    args = Args()
    args.query, args.game, args.edition, args.lang = list(query or []), game, edition, lang
    args.json, args.debug = as_json, debug
    args.rules = [*_dirs(), *(rules or [])]  # _dirs(): KBG_RULES's folders, then those of `kbg --rules`
    raise typer.Exit(run_args(args))


SHELLS = ("bash", "zsh", "fish", "powershell", "pwsh")


def _completion(option: str, shell: str) -> int:
    """``--show-completion SHELL`` / ``--install-completion SHELL`` for the shell named (typer's own options
    take no shell where shellingham is installed: they detect one and ignore the word)."""
    from typer._completion_shared import get_completion_script, install

    if shell not in SHELLS:
        render.error(f"error usage: no completion for the shell {shell!r}; use one of {', '.join(SHELLS)}")
        return EXIT_USAGE
    if option == "--show-completion":
        sys.stdout.write(get_completion_script(prog_name="kbg", complete_var=COMPLETE_VAR, shell=shell) + "\n")
        return EXIT_OK
    shell, path = install(shell=shell, prog_name="kbg", complete_var=COMPLETE_VAR)
    sys.stdout.write(f"{shell} completion installed in {path}; it takes effect in a new shell\n")
    return EXIT_OK


def main(argv: Sequence[str] | None = None) -> int:
    """``kbg ARGS`` through typer (the console script, kbg_cli.entry, runs ``kbg explain`` without it)."""
    if sys.stdout is None or sys.stderr is None:
        return EXIT_USAGE  # nowhere to write results or errors
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) == 2 and args[0] in ("--show-completion", "--install-completion"):
        return _completion(args[0], args[1])
    from .commands import group

    command = group(app)
    code: int = command.main(args=list(argv) if argv is not None else None, prog_name="kbg",
                             standalone_mode=False)
    return code


def run() -> None:
    sys.exit(main())
