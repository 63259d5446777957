"""No Thanks! game logs: reading their lines, replaying them, checkpoints and stated positions.

A log lists the players in seat order, the first player first, then one event per line::

    @game nothanks
    @players Ann Bob Cid
    remove 5 9 12 16 21 24 28 31 34   # optional: the nine cards out of the game, if known
    reveal 27                         # the first card turned
    Ann pass                          # Ann pays a chip onto it
    Bob take                          # Bob takes it and its chip, then turns the next card
    reveal 8
    Bob take
    ...
    expect score Bob 40               # checkpoints: kbg compares them with its replay
    expect chips Ann 10
    expect winner Cid

With ``@start position`` a log starts in the middle of a game (see :func:`position_lines`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from kbg_nothanks.model import NoThanksRuleset
from kbg_nothanks.state import Move, NoThanksState, Pass, Remove, Reveal, Take, runs_text
from kbgrules.core.closest import did_you_mean
from kbgrules.core.logfile import Event, GameText, LogSyntaxError, PlayerNames, Token
from kbgrules.core.replay import players_ok, replay_events
from kbgrules.core.report import GameReport
from kbgrules.errors import Diagnostic, IllegalMoveError

KEYWORDS = ("remove", "reveal", "expect", "removed", "offer", "next")
VERBS = ("take", "pass")


@dataclass(slots=True)
class Parsed:
    """A checkpoint (kind ``expect``: ``what`` is score, chips or winner) or a position statement (kind
    ``position``: ``what`` is has, removed, offer or next)."""

    event: Event
    kind: str
    what: str
    player: int | None = None
    values: tuple[int, ...] = ()


Item = Move | Parsed


def _number(tok: Token, what: str) -> int:
    if not (tok.text.isascii() and tok.text.isdigit()):
        raise LogSyntaxError(f"{what} must be a number, not {tok.text!r}", tok.col)
    return int(tok.text)


class Parser(PlayerNames):
    """Reads one event line into a move, a checkpoint or a position statement."""

    def parse(self, ev: Event) -> Item:
        words = ev.words
        who = self.index.get(words[0])
        if who is not None:
            return self._player_event(ev, who)
        head = words[0].lower()
        t = ev.tokens
        if head in ("remove", "removed"):
            if len(t) < 2:
                raise LogSyntaxError(f"expected: {head} N N ... (the cards out of the game)", ev.col)
            cards = tuple(_number(x, "a card") for x in t[1:])
            return Remove(cards) if head == "remove" else Parsed(ev, "position", "removed", values=cards)
        if head == "reveal":
            if len(t) != 2:
                raise LogSyntaxError("expected: reveal N (the card turned face up)", t[min(2, len(t) - 1)].col)
            return Reveal(_number(t[1], "a card"))
        if head == "expect":
            return self._expect(ev)
        if head == "offer":
            if len(t) != 4 or t[2].text.lower() != "chips":
                raise LogSyntaxError("expected: offer N chips N (the face-up card and the chips on it)", ev.col)
            return Parsed(ev, "position", "offer", values=(_number(t[1], "a card"), _number(t[3], "a count")))
        if head == "next":
            if len(t) != 2:
                raise LogSyntaxError("expected: next NAME (the player to decide, or to turn the next card)", ev.col)
            return Parsed(ev, "position", "next", player=self.player(t[1]))
        if len(t) > 1 and t[1].text.lower() in (*VERBS, "has"):
            self.player(t[0])  # raises: an unknown player, with the closest names
        raise LogSyntaxError(f"unknown event {t[0].text!r}: an event starts with a player's name or one of "
                             "remove, reveal, expect" + did_you_mean(head, ("remove", "reveal", "expect")), ev.col)

    def _player_event(self, ev: Event, who: int) -> Item:
        t = ev.tokens
        if len(t) < 2:
            raise LogSyntaxError("expected a verb after the player: take or pass", ev.col)
        verb = t[1].text.lower()
        if verb in VERBS:
            if len(t) > 2:
                raise LogSyntaxError(f"expected: NAME {verb} (nothing after it)", t[2].col)
            return Take(who) if verb == "take" else Pass(who)
        if verb == "has":
            return self._has(ev, who)
        raise LogSyntaxError(f"unknown verb {t[1].text!r}: use take or pass (or has, in a starting position)"
                             + did_you_mean(verb, (*VERBS, "has")), t[1].col)

    def _has(self, ev: Event, who: int) -> Parsed:
        t = ev.tokens
        usage = "expected: NAME has chips N [cards N ...]"
        if len(t) < 4 or t[2].text.lower() != "chips" or (len(t) > 4 and t[4].text.lower() != "cards"):
            raise LogSyntaxError(usage, ev.col)
        chips = _number(t[3], "a count")
        cards = tuple(_number(x, "a card") for x in t[5:])
        return Parsed(ev, "position", "has", player=who, values=(chips, *cards))

    def _expect(self, ev: Event) -> Parsed:
        t = ev.tokens
        what = t[1].text.lower() if len(t) > 1 else ""
        if what in ("score", "chips"):
            if len(t) != 4:
                raise LogSyntaxError(f"expected: expect {what} NAME N", ev.col)
            value = t[3].text
            n = int(value) if value.lstrip("-").isdigit() and value.isascii() else None
            if n is None:
                raise LogSyntaxError(f"a {what} must be a number, not {value!r}", t[3].col)
            return Parsed(ev, "expect", what, player=self.player(t[2]), values=(n,))
        if what in ("winner", "winners") and len(t) > 2:
            return Parsed(ev, "expect", "winner", values=tuple(self.player(x) for x in t[2:]))
        raise LogSyntaxError("expected: expect score NAME N | expect chips NAME N | expect winner NAME ...",
                             t[1].col if len(t) > 1 else ev.col)


def check_checkpoint(st: NoThanksState, p: Parsed) -> None:
    """Compare the checkpoint ``p`` with the game ``st``; a disagreement raises ``nt-checkpoint``."""
    rs = st.rs
    if p.what in ("score", "chips"):
        assert p.player is not None
        name = st.names[p.player]
        actual = st.score(p.player) if p.what == "score" else st.chips[p.player]
        if actual != p.values[0]:
            raise rs.violation("nt-checkpoint", what=f"{name}'s {p.what}", stated=p.values[0], actual=actual)
        return
    named = sorted(st.names[i] for i in p.values)
    if not st.is_terminal():
        raise rs.violation("nt-checkpoint", what="the winner", stated=", ".join(named),
                           actual=f"no winner yet ({st.expected()} comes next)")
    winners = sorted(st.outcome().winners)
    if named != winners:
        raise rs.violation("nt-checkpoint", what="the winners", stated=", ".join(named), actual=", ".join(winners))


def position_lines(st: NoThanksState) -> list[str]:
    """The position statements of ``st`` (empty at the set-up): each player's chips and cards, the
    removed cards if known, the face-up card and its chips, and who decides (or turns) next."""
    if st.phase() == "remove":
        return []
    out = [f"{name} has chips {chips}" + (" cards " + " ".join(map(str, sorted(hand))) if hand else "")
           for name, chips, hand in zip(st.names, st.chips, st.hands, strict=True)]
    if st.removed is not None:
        out.append("removed " + " ".join(map(str, st.removed)))
    if st.offer is not None:
        out.append(f"offer {st.offer} chips {st.pot}")
    if not st.is_terminal():
        out.append(f"next {st.names[st.to_act]}")
    return out


def apply_position(st: NoThanksState, items: Sequence[Parsed]) -> None:
    """Set ``st`` (a new game) to the stated position; an impossible one raises ``nt-position`` (its
    ``at`` param names the statement's kind)."""
    rs = st.rs

    def bad(problem: str, at: str) -> IllegalMoveError:
        return rs.violation("nt-position", problem=problem, at=at)

    seen: dict[int, str] = {}

    def card(c: int, where: str, at: str) -> None:
        if not rs.lowest <= c <= rs.highest:
            raise bad(f"there is no card {c}: the cards are numbered {rs.lowest} to {rs.highest}", at)
        if c in seen:
            raise bad(f"card {c} is stated twice ({seen[c]}, {where})", at)
        seen[c] = where

    stated = {p.what for p in items}
    if "next" not in stated:
        st.to_act = -1
    hands_given: set[int] = set()
    for p in items:
        if p.what == "has":
            assert p.player is not None
            if p.player in hands_given:
                raise bad(f"{st.names[p.player]}'s cards and chips are stated twice", "has")
            hands_given.add(p.player)
            st.chips[p.player] = p.values[0]
            for c in p.values[1:]:
                card(c, f"{st.names[p.player]}'s", "has")
            st.hands[p.player] = sorted(p.values[1:])
        elif p.what == "removed":
            if st.removed is not None:
                raise bad("the removed cards are stated twice", "removed")
            for c in p.values:
                card(c, "removed", "removed")
            if len(p.values) != rs.removed or not set(rs.always_removed) <= set(p.values):
                fixed = f", {', '.join(map(str, rs.always_removed))} among them" if rs.always_removed else ""
                raise bad(f"{rs.removed} cards are removed before play{fixed}", "removed")
            st.removed = tuple(sorted(p.values))
        elif p.what == "offer":
            c, pot = p.values
            card(c, "face up", "offer")
            st.offer, st.pot = c, pot
        else:
            assert p.player is not None
            st.to_act = p.player
    if len(hands_given) != len(st.names):
        missing = [n for i, n in enumerate(st.names) if i not in hands_given]
        raise bad(f"a position states every player's chips: {', '.join(missing)} missing", "has")
    for c in rs.always_removed:
        if st.removed is None and c in seen:
            raise bad(f"card {c} is always out of the game with these rules", "has")
    taken = [c for hand in st.hands for c in hand]
    st.turned = [*sorted(taken), *([st.offer] if st.offer is not None else [])]
    st.takes = [(c, i, 0, tuple(st.chips)) for i, hand in enumerate(st.hands) for c in hand]
    if len(st.turned) > rs.deck_size or (len(taken) == rs.deck_size and st.offer is not None):
        raise bad(f"only {rs.deck_size} cards are played", "offer" if st.offer is not None else "has")
    total = rs.setup_table[len(st.names)].chips * len(st.names)
    if sum(st.chips) + st.pot != total:
        raise bad(f"the chips add up to {sum(st.chips) + st.pot}, not the {total} the players start with", "has")
    if st.to_act < 0 and not st.is_terminal():
        raise bad("a position says who is next (next NAME) until the game is over", "has")
    st.to_act = max(st.to_act, 0)
    if st.phase() == "remove":
        raise bad("a starting position has cards turned, or states the removed cards", "has")
    st.start_lines = position_lines(st)


Step = tuple[Event, Item]


class Replay:
    """Replays the steps of one game into its state, stopping at the first violation."""

    def __init__(self, file: str, rs: NoThanksRuleset, report: GameReport) -> None:
        self.file = file
        self.report = report
        self.state = NoThanksState(rs, report.players)

    def fail(self, ev: Event, item: Item, exc: IllegalMoveError) -> None:
        self.report.stop(ev.line, _fail_col(ev, item, exc), ev.col, exc.code, exc.rule, exc.message)

    def run(self, steps: Sequence[Step], stop: int | None, from_position: bool) -> None:
        position: list[Step] = []
        started = not from_position
        limit = stop if stop is not None else 1 << 62
        st = self.state
        for ev, item in steps:
            if ev.line >= limit:
                break
            try:
                if isinstance(item, Parsed) and item.kind == "position":
                    if started:
                        raise st.rs.violation("nt-position", problem="position statements come first, before any "
                                                                    "move or checkpoint", at="")
                    position.append((ev, item))
                    continue
                if not started:
                    started = True
                    if not self._start(position):
                        return
                if isinstance(item, Parsed):
                    check_checkpoint(st, item)
                else:
                    st.apply(item)
            except IllegalMoveError as exc:
                self.fail(ev, item, exc)
                return
        if not started:
            self._start(position)

    def _start(self, position: list[Step]) -> bool:
        """Set up the stated position; False (the violation reported) if it is impossible."""
        if not position:
            return True
        items = [p for _, p in position if isinstance(p, Parsed)]
        try:
            apply_position(self.state, items)
        except IllegalMoveError as exc:
            at = str(exc.params.get("at", ""))
            ev, item = next(((e, p) for e, p in position if isinstance(p, Parsed) and p.what == at), position[-1])
            self.fail(ev, item, exc)
            return False
        return True


def _fail_col(ev: Event, item: Item, exc: IllegalMoveError) -> int:
    """The column of the part of the line that breaks the rule."""
    t = ev.tokens
    at = exc.params.get("at")
    if isinstance(at, int):
        for tok in t[1:]:
            if tok.text == str(at):
                return tok.col
    if exc.code == "nt-no-chips" and len(t) > 1:
        return t[1].col
    if exc.code == "nt-checkpoint" and isinstance(item, Parsed) and item.what != "winner":
        return t[-1].col
    return ev.col


def final_json(st: NoThanksState) -> dict[str, Any]:
    """The state at the end of the replay: the players best first, the winners, what is on the table."""
    out = st.outcome()
    return {
        "finished": st.is_terminal(),
        "players": [{"name": s.name, "rank": s.rank, "score": s.score, "card_points": s.card_points,
                     "chips": s.chips, "cards": list(s.cards), "runs": runs_text(s.cards)} for s in out.standings],
        "winners": list(out.winners),
        "removed": list(st.removed) if st.removed is not None else None,
        "offer": None if st.offer is None else {"card": st.offer, "chips": st.pot},
        "deck_left": st.rs.deck_size - len(st.turned),
        "next": None if st.is_terminal() else {"player": None if st.is_chance() else st.names[st.to_act],
                                               "expects": st.expected()},
    }


def timeline(st: NoThanksState) -> list[dict[str, Any]]:
    """``kbg show``'s card-by-card account: each card taken, by whom, with how many chips, and every
    player's score, chips and cards just after."""
    names = st.names
    hands: list[list[int]] = [[] for _ in names]
    out: list[dict[str, Any]] = []
    for n, (card, taker, pot, chips) in enumerate(st.takes, 1):
        hands[taker].append(card)
        out.append({"card": n, "number": card, "taker": names[taker], "chips": pot, "players": [
            {"name": name, "chips": chips[i], "cards": sorted(hands[i]), "score": st.score_of(hands[i], chips[i])}
            for i, name in enumerate(names)]})
    return out


def check_nothanks(file: str, g: GameText, rs: NoThanksRuleset, report: GameReport) -> NoThanksState:
    """Replay one No Thanks! game of a log into ``report`` (the core's replay loop); the state where the
    replay stopped."""
    from kbg_nothanks.result import record

    players = report.players
    if not players_ok(file, g, report, KEYWORDS):
        return NoThanksState(rs, players)
    start = g.tag("start")
    from_position = start is not None and start.values[0].text == "position"
    if start is not None and start.values[0].text not in ("setup", "position"):
        report.errors.append(Diagnostic(file, start.line, start.values[0].col, "log-header",
                                        "@start is 'setup' or 'position'"))
        return NoThanksState(rs, players)
    parser = Parser(players)

    def parse(ev: Event) -> Item:
        if ev.block:
            report.errors.append(Diagnostic(file, ev.block[0][0], 1, "log-syntax",
                                            f"nothing is indented under an event of a {rs.game.name} log"))
        item = parser.parse(ev)
        if isinstance(item, Parsed) and item.kind == "position" and not from_position:
            raise LogSyntaxError("position statements need '@start position' in the headers", ev.col)
        return item

    replay = Replay(file, rs, report)
    replay_events(file, g, report, parse, lambda steps, stop: replay.run(steps, stop, from_position))
    record(report, replay.state)
    report.timeline_builder = partial(timeline, replay.state)  # the state only: no cycle through the report
    return replay.state
