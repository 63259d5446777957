"""Random legal King of Tokyo games written as logs (``kbg simulate king-of-tokyo``): random rolls,
re-rolls, decisions, buys and card uses, seeded."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from kbgrules.core.logfile import FORMAT_VERSION
from kbgrules.core.simulate import DEFAULT_NAMES
from kbgrules.core.words import counted
from kbgrules.errors import KbgError


def _kot_reveal(state: Any, rng: random.Random, n: int) -> list[str]:
    """Cards a shuffled deck could reveal next (the discards come back when the deck runs out)."""
    from collections import Counter

    deck = Counter(state.deck)
    discards = Counter(state.discards)
    out: list[str] = []
    for _ in range(n):
        if sum(deck.values()) == 0 and state.rs.deck_exhausted == "reshuffle-discards":
            deck, discards = discards, Counter()
        pool = sorted(deck.elements())
        if not pool:
            break
        c = rng.choice(pool)
        deck[c] -= 1
        out.append(c)
    return out


def _evo_draws(state: Any, m: Any, n: int, rng: random.Random) -> list[str]:
    """Evolutions a shuffled deck could give next: the unknown top first, then the cards put under it."""
    from collections import Counter

    deck = Counter(m.evo_deck)
    bottom = list(m.evo_bottom)
    discard = Counter(m.evo_discard)
    out: list[str] = []
    for _ in range(n):
        if sum(deck.values()) == 0 and state.rs.evolution.reshuffle and discard:
            deck, discard, bottom = deck + discard, Counter(), []
        top = deck - Counter(bottom)
        if sum(top.values()):
            c = rng.choice(sorted(top.elements()))
        elif bottom:
            c = bottom.pop(0)
        else:
            break
        deck[c] -= 1
        out.append(c)
    return out


def _evolve(state: Any, i: int, rng: random.Random, start: bool = False) -> Any:
    from kbgrules.king_of_tokyo.state import Evolve

    ev = state.rs.evolution
    m = state.monsters[i]
    draw, keep = (ev.start_draw, ev.start_keep) if start else (ev.draw, ev.keep)
    drawn = _evo_draws(state, m, min(draw, state.evolutions_left(m)), rng)
    kept = tuple(rng.sample(drawn, min(keep, len(drawn))))
    return Evolve(i, tuple(drawn), kept)


def _unresolved(lines: list[str], who: str) -> bool:
    """True if nothing logged since ``who``'s last roll makes a checker resolve the dice."""
    start = max((k for k, ln in enumerate(lines) if ln.startswith(f"{who} roll")), default=len(lines))
    return all(ln.split()[1] in ("roll", "reroll", "use", "cure", "camouflage", "tokens")
               for ln in lines[start:] if not ln.startswith("expect"))


def play_king_of_tokyo(state: Any, rng: random.Random, max_turns: int = 400) -> list[str]:
    """Play to the end with random legal choices; the log lines of every event."""
    from kbgrules.king_of_tokyo.hooks import supported
    from kbgrules.king_of_tokyo.moves import SHORT, Camouflage, Keep, move_line
    from kbgrules.king_of_tokyo.state import FACES, Buy, Cure, Decide, EndTurn, Reroll, Roll, Sweep, Use

    names = state.players
    lines: list[str] = []

    def act(action: Any) -> None:
        """Apply and log ``action``; Camouflage dice it needs are rolled and logged right after it."""
        from kbgrules.king_of_tokyo.state import ChanceNeeded

        line = move_line(action, names, state.active)
        extra: list[str] = []
        while True:
            try:
                state.apply(action)
                break
            except ChanceNeeded as need:
                faces = tuple(rng.choice(FACES) for _ in range(need.count))
                state.camouflage_roll(need.monster, faces)
                extra.append(move_line(Camouflage(need.monster, faces), names, state.active))
        lines.append(line)
        lines.extend(extra)

    from kbgrules.king_of_tokyo.state import Play, Take, Tokens

    if state.starting:
        for i in range(len(state.monsters)):
            act(_evolve(state, i, rng, start=True))

    def extras(me: int, who: str) -> bool:
        """Tiles owed, evolutions drawn, now and then an evolution played; False if stuck."""
        m = state.monsters[me]
        while m.owed and not m.eliminated:
            level = m.owed[0]
            choices = [t for t in state.tiles_left(level) if supported(state.cards, f"tile:{t}")]
            if not choices:
                return not state.tiles_left(level)
            t = rng.choice(choices)
            act(Take(me, t))
        if m.evo_owed and not m.eliminated and state.evolutions_left(m):
            act(_evolve(state, me, rng))
        playable = [c for c in m.hand if c != "?" and supported(state.cards, f"evolution:{c}")]
        if playable and rng.random() < 0.3 and not state.is_terminal():
            c = rng.choice(playable)
            if state.active == me and state.phase != "roll" and _unresolved(lines, who):
                lines.append(move_line(Keep(), names, me))  # the dice were resolved silently: say so first
            snap = state._snapshot()
            try:  # a card whose own text forbids this moment, or that needs arguments, is not played
                act(Play(me, c))
            except KbgError:
                state._restore(snap)
        return True

    while not state.is_terminal() and state.turn_number <= max_turns:
        me = state.active
        who = names[me]
        if not state.me.eliminated:
            room = state.rs.max_dice - state.dice_count()
            spend = min(state.me.dice_tokens, state.rs.dice_tokens_per_turn, room)
            if spend and rng.random() < 0.5:
                act(Tokens(me, spend))
            roll = tuple(rng.choice(FACES) for _ in range(state.dice_count()))
            act(Roll(roll))
            def use(card: str, *args: str, me: int = me) -> None:
                act(Use(me, card, tuple(args)))

            mine = state.me.cards
            if "herd-culler" in mine and rng.random() < 0.3 and any(d != "1" for d in state.dice):
                use("herd-culler", SHORT[next(d for d in state.dice if d != "1")])
            while True:
                if state.rolls >= state.max_rolls():
                    if "energy-drink" in mine and state.me.energy >= 1 and rng.random() < 0.5:
                        use("energy-drink")
                    elif "smoke-cloud" in mine and state.me.tokens["smoke"] and rng.random() < 0.5:
                        use("smoke-cloud")
                if not (state.rolls < state.max_rolls() and state.dice and rng.random() < 0.6):
                    break
                k = rng.randint(1, len(state.dice))
                chosen = tuple(rng.sample(state.dice, k))
                hunt = [d for d in state.dice if d != "1"]
                if state.rs.wickedness is not None and hunt and rng.random() < 0.5:
                    chosen = tuple(hunt)  # the Dark Edition: chase three 1s for wickedness
                if state.rs.evolution is not None and rng.random() < 0.3:
                    chosen = tuple(d for d in state.dice if d != "heart") or chosen  # chase 3 hearts
                new = tuple(rng.choice(FACES) for _ in chosen)
                act(Reroll(chosen, new))
            for token in ("poison", "shrink"):
                spare = state.dice.count("heart") - sum(state.cures.values())
                if state.me.tokens[token] and spare > 0 and not state.me.in_tokyo and rng.random() < 0.5 \
                        and not state.me.stored.get("no_dice_heal"):
                    act(Cure(me, token, 1))
            later = {"freeze-time", "rapid-healing", "metamorph"} & set(state.me.cards)
            camouflage = any("camouflage" in state.in_play(m) for m in state.monsters if not m.eliminated)
            if later or camouflage or rng.random() < 0.3:  # uses and dice after the roll need a stated end
                act(Keep())
            else:
                state._resolve()
            while state.phase == "decide":
                i = state.pending[0]
                if rng.random() < 0.4:
                    snap = state._snapshot()
                    try:
                        act(Decide(i, True))
                        continue
                    except KbgError:  # a card forbids yielding now (Blizzard): stay
                        state._restore(snap)
                act(Decide(i, False))
            if state.is_terminal():
                break
            if not extras(me, who):  # a tile is owed but none left can be replayed: stop here
                if _unresolved(lines, who):
                    lines.append(move_line(Keep(), names, me))  # the dice were resolved: say so
                break
            mine = state.me.cards
            if "freeze-time" in mine and state.final_dice.count("1") >= 3 and rng.random() < 0.5:
                use("freeze-time")
            if "rapid-healing" in mine and state.me.energy >= 2 and state.me.hp < state.max_hp(state.me) \
                    and rng.random() < 0.3:
                use("rapid-healing")
            if "metamorph" in mine and len(mine) > 1 and rng.random() < 0.1:
                use("metamorph", rng.choice([c for c in mine if c != "metamorph"]))
        while not state.is_terminal() and state.active == me and state.phase == "buy" and rng.random() < 0.7:
            options = [a for a in state.legal_actions() if not isinstance(a, EndTurn)]
            if not options:
                break
            a = rng.choice(options)
            if isinstance(a, Buy):
                reveal = _kot_reveal(state, rng, 1)
                act(Buy(me, a.card, reveal[0] if reveal else None))
                if state.cards[a.card].hook == "monster_batteries":  # 2011: charge it with own energy
                    n = rng.randint(0, state.me.energy)
                    act(Use(me, a.card, (str(n),)))
            elif isinstance(a, Sweep):
                need = state.rs.market_size - sum(1 for c in state.market if state.rs.sweep_keeps_events
                                                  and state.cards[c].type == "event")
                reveals = _kot_reveal(state, rng, need)
                if len(reveals) < need:
                    break
                act(Sweep(me, tuple(reveals)))
        if not state.is_terminal() and not extras(me, who):
            break
        act(EndTurn(me))
    return lines


def simulate_king_of_tokyo(players: int, seed: int, edition: str | None = None, variants: Sequence[str] = (),
                           names: Sequence[str] | None = None, rules_dirs: Sequence[str] = ()) -> str:
    """A random legal King of Tokyo game log, ending with checkpoints for every monster and the winners."""
    from kbgrules.core.load import load
    from kbgrules.king_of_tokyo.model import KingOfTokyoRuleset
    from kbgrules.king_of_tokyo.state import KingOfTokyoState

    rs = load("king-of-tokyo", edition=edition, variants=variants, players=players, rules_dirs=rules_dirs)
    assert isinstance(rs, KingOfTokyoRuleset)
    names = tuple(names or DEFAULT_NAMES[:players])
    rng = random.Random(seed)
    if not rs.cards:
        from kbgrules.errors import KbgError

        raise KbgError(f"the {rs.edition.title} ships no card list: give the cards with --rules DIR",
                       code="no-cards")
    monsters: list[str] = []
    head: list[str] = []
    ev = rs.evolution
    if ev is not None:
        kinds = sorted({c.monster for c in rs.evolutions})
        if len(kinds) < players and not ev.draft:
            from kbgrules.errors import KbgError

            raise KbgError(f"evolutions for {counted(len(kinds), 'monster')} are loaded, not enough for "
                           f"{players} players",
                           code="player-count")
        if not ev.draft:
            monsters = rng.sample(kinds, players)
            head.append("@monsters " + " ".join(monsters))
    sides = ""
    if rs.wickedness is not None:
        sides = rng.choice(list(rs.wickedness.sides))
        head.append(f"@tiles {sides}")
    first = rng.randrange(players)
    probe = KingOfTokyoState(rs, names)
    market = _kot_reveal(probe, rng, rs.market_size)
    state = KingOfTokyoState(rs, names, (), first, begin=False, monsters=monsters)
    setup: list[str] = []
    if sides:
        state.tile_sides = sides
        if sides == "mixed":
            for red in list(state.tile_supply):
                t = state.cards[f"tile:{red}"]
                state.tile_faces[red] = rng.choice([red, t.back]) if t.back else red
            setup.append("tiles " + " ".join(state.tile_faces[r] for r in state.tile_supply))
    if ev is not None and ev.draft:
        from collections import Counter

        pool = sorted(c.id for c in rs.evolutions for _ in range(c.copies))
        rng.shuffle(pool)
        for i, m in enumerate(state.monsters):
            deck = pool[8 * i: 8 * i + 8]
            m.evo_deck = Counter(deck)
            setup.append(f"{names[i]} evolutions " + " ".join(deck))
    state.reveal(market)
    state.start_turn()
    out = [f"# random legal game: kbg simulate king-of-tokyo --players {players} --seed {seed}",
           f"@kbg {FORMAT_VERSION}", "@game king-of-tokyo", f"@edition {rs.edition.id}"]
    out += [f"@variant {v.id}" for v in rs.variants]
    out += ["@players " + " ".join(names), *head, f"first {names[first]}", "market " + " ".join(market), *setup]
    out += play_king_of_tokyo(state, rng)
    for m in state.monsters:
        out.append(f"expect {m.name} hp {m.hp}")
        out.append(f"expect {m.name} vp {m.vp}")
        if rs.wickedness is not None:
            out.append(f"expect {m.name} wickedness {m.wickedness}")
        if rs.dice_tokens_per_turn:
            out.append(f"expect {m.name} dicetokens {m.dice_tokens}")
    winners = state.outcome().winners
    if state.is_terminal():
        out.append("expect winner " + (" ".join(winners) if winners else "none"))
    return "\n".join(out) + "\n"
