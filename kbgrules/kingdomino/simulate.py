"""Random legal Kingdomino games written as logs (``kbg simulate kingdomino``): uniform over the
legal moves, seeded."""

from __future__ import annotations

import random
from collections.abc import Sequence

from kbgrules.core.logfile import FORMAT_VERSION
from kbgrules.core.simulate import DEFAULT_NAMES
from kbgrules.kingdomino.game import move_line
from kbgrules.kingdomino.state import Action, Deal, DrawKings, KingdominoState


def action_text(state: KingdominoState, action: Action) -> str:
    """One log line for ``action``."""
    return move_line(state.players, state.rs.kingdom_size, action)


def play_kingdomino(state: KingdominoState, rng: random.Random) -> list[str]:
    """Play ``state`` to the end with random legal moves; the log lines of every event."""
    deck = state.remaining_deck()
    rng.shuffle(deck)
    size = state.row.line_size
    lines: list[str] = []
    while not state.is_terminal():
        if state.is_chance():
            action: Action = Deal(tuple(deck[:size]))
            del deck[:size]
        else:
            action = rng.choice(state.legal_actions())
        lines.append(action_text(state, action))
        state.apply(action, check=False)
        if isinstance(action, Deal) and state.lines_dealt == 1:
            order = list(state.king_owner)
            rng.shuffle(order)
            if state.rs.first_player_method == "snake" and len(state.players) == 2:
                a = order[0]
                order = [a, 1 - a, 1 - a, a]
            draw = DrawKings(tuple(order))
            lines.append(action_text(state, draw))
            state.apply(draw, check=False)
    return lines


def simulate_kingdomino(players: int, seed: int, edition: str | None = None, variants: Sequence[str] = (),
                        names: Sequence[str] | None = None, rules_dirs: Sequence[str] = ()) -> str:
    """A complete random game log (three games for Dynasty), ending with score and winner checkpoints."""
    from kbgrules.core.load import load
    from kbgrules.kingdomino.model import KingdominoRuleset

    rs = load("kingdomino", edition=edition, variants=variants, players=players, rules_dirs=rules_dirs)
    assert isinstance(rs, KingdominoRuleset)
    names = tuple(names or DEFAULT_NAMES[:players])
    rng = random.Random(seed)
    out: list[str] = [f"# random legal game: kbg simulate kingdomino --players {players} --seed {seed}"]
    for game in range(rs.games_per_match):
        if game:
            out.append("")
        out += [f"@kbg {FORMAT_VERSION}", "@game kingdomino", f"@edition {rs.edition.id}"]
        out += [f"@variant {v.id}" for v in rs.variants]
        out.append("@players " + " ".join(names))
        if rs.games_per_match > 1:
            out.append(f"@round {game + 1}")
        state = KingdominoState(rs, names)
        out += play_kingdomino(state, rng)
        for st in state.outcome().standings:
            out.append(f"expect score {st.name} {st.score.total}")
        out.append("expect winner " + " ".join(state.outcome().winners))
    return "\n".join(out) + "\n"
