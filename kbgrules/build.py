"""Turning an effective data tree into the typed, immutable Ruleset of its game."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from kbgrules.core.data import GameFiles, Resolved
from kbgrules.model import (
    Bonus,
    Card,
    Component,
    DieFace,
    Document,
    Domino,
    EvolutionRules,
    GameInfo,
    Half,
    KingdominoRuleset,
    KingdominoSetup,
    KingOfTokyoRuleset,
    KingOfTokyoSetup,
    OverlayInfo,
    Reward,
    RuleEntry,
    Ruleset,
    Source,
    Wickedness,
)


def freeze(value: Any) -> Any:
    """A read-only deep copy: mappings become MappingProxyType, lists become tuples."""
    if isinstance(value, dict):
        return MappingProxyType({k: freeze(v) for k, v in value.items()})
    if isinstance(value, list):
        return tuple(freeze(v) for v in value)
    return value


def sources(items: Any) -> tuple[Source, ...]:
    return tuple(
        Source(str(s["doc"]), str(s["section"]),
               None if s.get("edition") is None else str(s["edition"]),
               s.get("note"))
        for s in items or ()
    )


def _strs(items: Any) -> tuple[str, ...]:
    return tuple(str(x) for x in items or ())


def overlay_info(kind: str, oid: str, d: Mapping[str, Any], *, default: bool = False,
                 file: str | None = None) -> OverlayInfo:
    players = d.get("players")
    eds = d.get("editions")
    return OverlayInfo(
        id=oid, kind=kind, title=str(d.get("title", oid)), summary=str(d.get("summary", "")).strip(),
        aliases=_strs(d.get("aliases")), default=default, option=bool(d.get("option", False)),
        players=tuple(int(p) for p in players) if isinstance(players, list) else None,
        editions=_strs(eds) if eds else None, conflicts=_strs(d.get("conflicts")),
        sources=sources(d.get("sources")), file=file,
    )


def game_info(gf: GameFiles) -> GameInfo:
    g = gf.game.data
    base = g["base_edition"]
    editions = [overlay_info("edition", str(base["id"]), base, default=True)]
    editions += [overlay_info("edition", eid, f.data, file=f.doc.file if f.user else None)
                 for eid, f in gf.editions.items()]
    variants = [overlay_info("variant", vid, f.data, file=f.doc.file if f.user else None)
                for vid, f in gf.variants.items()]
    variants.sort(key=lambda v: (v.option, v.id))
    return GameInfo(
        id=str(g["id"]), name=str(g["name"]), aliases=_strs(g.get("aliases")),
        min_players=int(g["players"]["min"]), max_players=int(g["players"]["max"]),
        summary=str(g.get("summary", "")).strip(), editions=tuple(editions), variants=tuple(variants),
        year=g.get("year"), designers=_strs(g.get("designers")), publisher=g.get("publisher"),
    )


def _common(res: Resolved) -> dict[str, Any]:
    t = res.tree
    info = game_info(res.files)
    edition = next(e for e in info.editions if e.id == res.edition_id)
    variants = tuple(next(v for v in info.variants if v.id == vid) for vid in res.variant_ids)
    docs = {
        k: Document(k, str(v["title"]), str(v["kind"]), str(v["authority"]),
                    None if v.get("edition") is None else str(v["edition"]))
        for k, v in (t.get("documents") or {}).items()
    }
    rules = {
        rid: RuleEntry(rid, str(r["title"]), str(r["text"]).strip(), sources(r.get("sources")),
                       _strs(r.get("related")), _strs(r.get("tags")),
                       None if r.get("conflict") is None else str(r["conflict"]).strip(),
                       MappingProxyType({k: str(v).strip() for k, v in (r.get("translations") or {}).items()}))
        for rid, r in (t.get("rules") or {}).items()
    }
    comps = tuple(Component(str(c["id"]), str(c["name"]), c.get("count"), c.get("note"))
                  for c in t.get("components") or ())
    return {
        "game": info, "edition": edition, "variants": variants, "players": res.players,
        "documents": MappingProxyType(docs), "components": comps,
        "rules": MappingProxyType(rules), "data": freeze(t),
    }


def _half(code: str, letters: Mapping[str, str]) -> Half:
    return Half(letters[code[0]], int(code[1:]))


def build_kingdomino(res: Resolved) -> KingdominoRuleset:
    t = res.tree
    from kbgrules.model import Terrain

    terrains = tuple(Terrain(str(x["id"]), str(x["letter"]), str(x["name"]), _strs(x.get("aliases")),
                             x.get("colour")) for x in t["terrains"])
    letters = {x.letter: x.id for x in terrains}
    dominoes = tuple(Domino(int(d["number"]), _half(d["first"], letters), _half(d["second"], letters))
                     for d in t.get("dominoes") or ())
    setup = {
        int(k): KingdominoSetup(
            players=int(k), kings_per_player=int(r["kings_per_player"]), dominoes_used=int(r["dominoes_used"]),
            dominoes_removed=int(r["dominoes_removed"]), line_size=int(r["line_size"]), rounds=int(r["rounds"]),
            leftover_per_line=int(r["leftover_per_line"]), sources=sources(r.get("sources")))
        for k, r in t["setup"].items()
    }
    p, s = t["placement"], t["scoring"]
    bonuses = {k: Bonus(k, int(b["points"]), bool(b["active"]), str(b["reading"]))
               for k, b in (s.get("bonuses") or {}).items()}
    return KingdominoRuleset(
        **_common(res),
        colours=_strs(t.get("colours")), terrains=terrains,
        max_crowns_per_square=int(t.get("max_crowns_per_square", 3)), dominoes=dominoes,
        setup_table=MappingProxyType(dict(sorted(setup.items()))),
        kingdom_size=int(p["kingdom_size"]), castle_wild=bool(p["castle_wild"]),
        min_matching_edges=int(p["min_matching_edges"]), diagonal_connects=bool(p["diagonal_connects"]),
        discard=str(p["discard"]), bonuses=MappingProxyType(bonuses), tiebreak=_strs(s["tiebreak"]),
        games_per_match=int(t["match"]["games"]),
        first_player_text=str(t["first_player"]["text"]).strip(), lines_text=str(t["lines"]["text"]).strip(),
        first_player_method=str(t["first_player"]["method"]),
    )


def _reward(r: Mapping[str, Any]) -> Reward:
    return Reward(str(r["resource"]), int(r["amount"]))


def build_king_of_tokyo(res: Resolved) -> KingOfTokyoRuleset:
    t = res.tree
    cards = tuple(
        Card(id=cid, name=str(c["name"]), cost=int(c["cost"]), type=str(c["type"]),
             effect=str(c["effect"]).strip(), sources=sources(c.get("sources")), copies=int(c.get("copies", 1)),
             clarification=None if c.get("clarification") is None else str(c["clarification"]).strip(),
             effects=tuple(freeze(e) for e in c.get("effects") or ()), hook=c.get("hook"))
        for cid, c in (t.get("cards") or {}).items()
    )
    tiles = tuple(
        Card(id=tid, name=str(c["name"]), cost=0, type=str(c["type"]), effect=str(c["effect"]).strip(),
             sources=sources(c.get("sources")), kind="tile", level=int(c["level"]), side=str(c["side"]),
             back=str(c.get("back") or ""), hook=c.get("hook"),
             clarification=None if c.get("clarification") is None else str(c["clarification"]).strip(),
             effects=tuple(freeze(e) for e in c.get("effects") or ()))
        for tid, c in (t.get("tiles") or {}).items()
    ) if t.get("wickedness") else ()
    evolutions = tuple(
        Card(id=eid, name=str(c["name"]), cost=0, type=str(c["type"]), effect=str(c["effect"]).strip(),
             sources=sources(c.get("sources")), kind="evolution", monster=str(c["monster"]), hook=c.get("hook"),
             copies=int(c.get("copies", 1)),
             clarification=None if c.get("clarification") is None else str(c["clarification"]).strip(),
             effects=tuple(freeze(e) for e in c.get("effects") or ()))
        for eid, c in (t.get("evolutions") or {}).items()
    ) if (t.get("evolution") or {}).get("enabled") else ()
    w = t.get("wickedness")
    wickedness = None if not w else Wickedness(
        gains=MappingProxyType({str(k): int(v) for k, v in w["gains"].items()}), max=int(w["max"]),
        thresholds=tuple(int(x) for x in w["thresholds"]),
        supply=MappingProxyType({int(k): int(v) for k, v in (w.get("supply") or {}).items()}),
        sides=_strs(w["sides"]), default_side=str(w["default_side"]))
    ev: Mapping[str, Any] = t.get("evolution") or {}
    start_ev = ev.get("start") or {}
    evolution = None if not ev.get("enabled") else EvolutionRules(
        hearts=int(ev["hearts"]), draw=int(ev["draw"]), keep=int(ev["keep"]), others=str(ev["others"]),
        reshuffle=bool(ev["reshuffle"]), start_draw=int(start_ev.get("draw", 0)),
        start_keep=int(start_ev.get("keep", 0)), start_others=str(start_ev.get("others", "none")),
        draft=bool(ev.get("draft", False)))
    setup = {int(k): KingOfTokyoSetup(int(k), _strs(r["tokyo_spaces"]), _strs(r.get("optional_tokyo_spaces")))
             for k, r in t["setup"].items()}
    dice, tokyo, start = t["dice"], t["tokyo"], t["monster_start"]
    return KingOfTokyoRuleset(
        **_common(res),
        monsters=_strs(t.get("monsters")),
        dice_faces=tuple(DieFace(str(f["id"]), str(f["name"]), _strs(f.get("aliases"))) for f in dice["faces"]),
        standard_dice=int(dice["standard"]), extra_dice=int(dice["extra"]), max_dice=int(dice["max"]),
        start_life=int(start["life"]), start_vp=int(start["vp"]), start_energy=int(start["energy"]),
        max_life=int(t["life"]["max"]), life_hard_cap=int(t["life"]["hard_cap"]),
        vp_goal=int(t["victory"]["vp_goal"]), victory_check=str(t["victory"]["check"]),
        rolls=int(t["roll"]["rolls"]), set_size=int(t["roll"]["set_size"]),
        tokyo_spaces=_strs(tokyo["spaces"]), enter_mandatory=bool(tokyo["enter_mandatory"]),
        enter_requires_smash=bool(tokyo["enter_requires_smash"]), bay_min_monsters=int(tokyo["bay_min_monsters"]),
        heal_in_tokyo=bool(tokyo["heal_in_tokyo"]), enter_reward=_reward(tokyo["rewards"]["enter"]),
        start_turn_reward=_reward(tokyo["rewards"]["start_turn"]),
        market_size=int(t["market"]["size"]), sweep_cost=int(t["market"]["sweep_cost"]),
        deck_exhausted=str(t["market"].get("deck_exhausted", "reshuffle-discards")),
        phases=_strs(t["turn"]["phases"]), cards=cards, setup_table=MappingProxyType(dict(sorted(setup.items()))),
        first_player_text=str(t["first_player"]["text"]).strip(),
        tiles=tiles, evolutions=evolutions, wickedness=wickedness, evolution=evolution,
        dice_tokens_per_turn=int((t.get("dice_tokens") or {}).get("per_turn", 0)),
        buy_fallback_energy=int((t["market"].get("buy_fallback") or {}).get("energy", 0)),
        sweep_keeps_events=bool(t["market"].get("sweep_keeps_events", False)),
    )


BUILDERS: dict[str, Callable[[Resolved], Ruleset]] = {
    "kingdomino": build_kingdomino,
    "king-of-tokyo": build_king_of_tokyo,
}
