"""King of Tokyo positions as JSON and text, for the checker's reports: Tokyo, the monsters and the
final position (``final_json``), dice counts (``counts_text``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from kbgrules.king_of_tokyo.moves import SHORT

if TYPE_CHECKING:
    from kbgrules.king_of_tokyo.monster import Monster
    from kbgrules.king_of_tokyo.state import KingOfTokyoState


def tokyo_json(st: KingOfTokyoState) -> dict[str, Any]:
    city, bay = st.occupant("city"), st.occupant("bay")
    return {"city": None if city is None else st.monsters[city].name,
            "bay": None if bay is None else st.monsters[bay].name}


def monster_json(st: KingOfTokyoState, m: Monster) -> dict[str, Any]:
    rs = st.rs
    out: dict[str, Any] = {
        "name": m.name, "hp": m.hp, "max_hp": st.max_hp(m), "vp": m.vp, "energy": m.energy,
        "location": m.location, "eliminated": m.eliminated, "cards": list(m.cards), "tokens": dict(m.tokens)}
    if m.mimic and ("mimic" in m.cards or "fluxling" in m.tiles):
        out["mimic"] = m.mimic
    if rs.wickedness is not None:
        out["wickedness"] = m.wickedness
        out["tiles"] = list(m.tiles)
        out["owed_tiles"] = list(m.owed)
    if rs.evolution is not None:
        out["monster"] = m.monster or None
        out["evolutions"] = list(m.evolutions)
        out["hand"] = list(m.hand)
    if rs.dice_tokens_per_turn:
        out["dice_tokens"] = m.dice_tokens
    return out


def pending_json(st: KingOfTokyoState) -> list[dict[str, Any]]:
    """Who must still decide or do what before the game can go on."""
    out: list[dict[str, Any]] = []
    if st.phase == "decide":
        out += [{"monster": st.monsters[i].name, "decision": "yield"} for i in st.pending]
    for m in st.monsters:
        if m.eliminated:
            continue
        if m.owed:
            out += [{"monster": m.name, "decision": "wickedness-tile", "level": level} for level in m.owed]
        if m.evo_owed:
            out.append({"monster": m.name, "decision": "evolution", "draws": m.evo_owed})
    return out


def next_json(st: KingOfTokyoState) -> dict[str, Any] | None:
    """Who acts next and how: ``dice`` is the number of dice of the coming roll (a log that stops
    between turns stops at the start of the next one)."""
    if st.over is not None:
        return None
    rolling = st.phase == "roll" and not st.rolls
    return {"monster": st.me.name, "phase": st.phase, "expects": st.expected(),
            "dice": st.dice_count() if rolling else None}


def frozen_json(st: KingOfTokyoState) -> dict[str, Any]:
    """Power Up!: the Freeze Rays lent out and the die Encased in Ice."""
    names = [m.name for m in st.monsters]
    return {"freeze_rays": [{"owner": names[o], "holder": names[h], "face": f or None}
                            for o, (h, f) in sorted(st.freeze_rays.items())],
            "encased_die": None if st.ice_die is None else {"owner": names[st.ice_die[0]], "face": st.ice_die[1]}}


def final_json(st: KingOfTokyoState) -> dict[str, Any]:
    out = st.outcome()
    extra = frozen_json(st) if st.rs.evolution is not None else {}
    return {
        "monsters": [monster_json(st, m) for m in st.monsters],
        "tokyo": tokyo_json(st),
        "market": list(st.market),
        "deck_size": sum(st.deck.values()),
        "deck": list(st.deck_order) if st.deck_order else None,
        "discard": {c: n for c, n in sorted(st.discards.items()) if n > 0},
        "turn": st.turn_number,
        "active": st.me.name,
        "pending": pending_json(st),
        "next": next_json(st),
        **extra,
        "game_over": {"over": out.over, "winners": list(out.winners), "reason": out.reason},
    }


def counts_text(dice: Mapping[str, int]) -> str:
    return " ".join(f"{SHORT[f]}x{n}" for f, n in dice.items())
