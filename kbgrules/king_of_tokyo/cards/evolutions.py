"""Python hooks for King of Tokyo Power Up! evolution cards (see kbgrules.king_of_tokyo.cards.base).

An evolution's hook is called when it is played: ``use`` for a temporary one (with the arguments of
``NAME play CARD ARGS``), ``on_buy`` for a permanent one (then ``use`` too when the play line gives
arguments, so ``NAME play gamma-breath h`` plays the card and uses it at once). A permanent evolution in
play is used later with ``NAME use CARD ARGS``. ``may_play`` refuses a play before the card leaves the
hand.

Temporary evolutions whose effect lasts (Mecha Blast, Cat Nip, Cold Wave, Nine Lives) stay in front of
their owner, among its evolutions, until the effect ends; then they go to its discard pile.

Chance is given in the log, as for the dice of a roll: the cards an evolution turns over (Precision
Field Support, Deep Dive, Miraculous Catch) and the dice it rolls (Lightning Armor) are arguments of its
``play``/``use`` line, checked against the deck (copies left, a stated order) and the loss being answered.
Monkey Rush and Feline Motor are played right after the active monster's dice resolve: the replay takes
back its Enter Tokyo step (``KingOfTokyoState.enter_snapshot``) and enters the owner first.

Choices are arguments too: Icy Reflection names the evolution it copies (``Monster.icy``; the engine's
``in_play`` adds the copy, and hooks that discard their own card use ``_expire_own``), Superior Alien
Technology's half-price buy names the card and its replacement (``Monster.ufo`` lists the marked cards;
the owner's first roll waits for the UFO dice, ``Hook.before_roll``), and Bamboozle stands in place of
the buy it stops and names the card bought instead.

Not listed here (playing one stops the check with ``kot-unsupported-card``): Freeze Ray (the card changes
hands and its owner chooses a face at the start of another monster's turn) and Encased in Ice (a die
frozen across the other monsters' turns, outside their rolls).
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from kbgrules.errors import IllegalMoveError
from kbgrules.king_of_tokyo.cards.base import Hook

if TYPE_CHECKING:
    from kbgrules.king_of_tokyo.state import KingOfTokyoState, Monster

OPPOSITE = {"1": "3", "3": "1", "2": "heart", "heart": "2", "smash": "energy", "energy": "smash"}


# --------------------------------------------------------------------------- helpers


def _key(card: str) -> str:
    return f"evolution:{card}"


def _name(st: KingOfTokyoState, card: str) -> str:
    return st.cards[_key(card)].name


def _refuse(st: KingOfTokyoState, card: str, why: str) -> IllegalMoveError:
    return st._fail("evo-play", card=_name(st, card), why=why)


def _resolve_now(st: KingOfTokyoState) -> None:
    """The active monster's rolling ends here (as with any action that needs the dice resolved)."""
    if st.phase == "roll" and st.rolls:
        st._resolve()


def _after_rolling(st: KingOfTokyoState) -> None:
    """Rolling and the yield decisions are over (absent decisions are stays)."""
    _resolve_now(st)
    if st.phase == "decide":
        st.finish_decisions()


def _own_roll(st: KingOfTokyoState, i: int, card: str) -> None:
    if i != st.active or st.phase != "roll" or not st.rolls:
        raise _refuse(st, card, "its owner plays it after rolling, before its dice resolve")


def _before_roll(st: KingOfTokyoState, i: int, card: str) -> None:
    if i != st.active or st.phase != "roll" or st.rolls:
        raise _refuse(st, card, "its owner plays it at the start of its turn, before the first roll")


def _own_buy(st: KingOfTokyoState, i: int, card: str, what: str) -> None:
    if i != st.active:
        raise _refuse(st, card, f"{what} on its owner's turn")
    _after_rolling(st)
    if st.phase != "buy":
        raise _refuse(st, card, f"{what} after its owner's dice resolve")


def _once(st: KingOfTokyoState, i: int, card: str) -> None:
    key = f"{card}:{i}"
    if key in st.used_this_turn:
        raise _refuse(st, card, "it works once per turn")
    st.used_this_turn.add(key)


def _monster(st: KingOfTokyoState, card: str, text: str) -> int:
    for k, o in enumerate(st.monsters):
        if o.name == text and not o.eliminated:
            return k
    raise _refuse(st, card, f"{text!r} is not a monster still in the game")


def _faces(st: KingOfTokyoState, card: str, args: Sequence[str], form: str) -> list[str]:
    from kbgrules.king_of_tokyo.state import face

    if len(args) != form.count(" ") + 1:
        raise _refuse(st, card, f"write: NAME play|use {card} {form}")
    out = []
    for a in args:
        f = face(a)
        if f is None:
            raise st._fail("kot-bad-face", face=a)
        out.append(f)
    if out[0] not in st.dice:
        raise _refuse(st, card, f"no die shows {out[0]}")
    return out


def _linger(st: KingOfTokyoState, m: Monster, card: str) -> None:
    """A temporary evolution stays in front of its owner while its effect lasts."""
    if card in m.evolutions:  # ``use CARD`` on it: it was played already
        raise _refuse(st, card, "it is in play already")
    m.evo_discard[card] -= 1
    if m.evo_discard[card] <= 0:
        del m.evo_discard[card]
    m.evolutions.append(card)


def _expire(st: KingOfTokyoState, m: Monster, card: str) -> None:
    if card in m.evolutions:
        m.evolutions.remove(card)
        m.evo_discard[card] += 1
        m.stored.pop(card, None)


def _expire_own(st: KingOfTokyoState, m: Monster, card: str) -> None:
    """A permanent evolution leaves play: the card itself, or the Icy Reflection that copies it."""
    if card in m.evolutions:
        _expire(st, m, card)
    elif m.icy == card and "icy-reflection" in m.evolutions:
        _expire(st, m, "icy-reflection")
        m.icy = None


def _holders(st: KingOfTokyoState, card: str) -> list[int]:
    return [k for k, o in enumerate(st.monsters) if card in o.evolutions and not o.eliminated]


def _after_in_play(st: KingOfTokyoState, owner: int, first: str, then: str) -> bool:
    """True if evolution ``then`` comes after ``first`` among the owner's cards (so its hook runs later)."""
    keys = st.in_play(st.monsters[owner])
    return _key(then) in keys and keys.index(_key(then)) > keys.index(_key(first))


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower().replace("'", "")).strip("-")


def _card(st: KingOfTokyoState, card: str, text: str) -> str:
    """A Power card id from a log word."""
    cid = st.card_id(text)
    if cid is None or cid not in {c.id for c in st.rs.cards}:
        raise st._fail("kot-unknown-card", card=text)
    return cid


def _from_deck(st: KingOfTokyoState, cid: str) -> None:
    """Take ``cid`` off the top of the Power deck (checked as a reveal: copies left, the stated order)."""
    st.reveal([cid], effects=False)
    st.market.remove(cid)


def _deck_check(st: KingOfTokyoState, cards: Sequence[str]) -> None:
    """Refuse (as a reveal would) cards that cannot come off the top of the deck in this order."""
    saved = Counter(st.deck), Counter(st.discards), list(st.market), list(st.deck_order)
    try:
        for c in cards:
            _from_deck(st, c)
    finally:
        st.deck, st.discards, st.market, st.deck_order = saved


def _gain_card(st: KingOfTokyoState, m: Monster, cid: str, bought: bool = False) -> None:
    """Put a Power card into play in front of ``m`` as if bought (a discard card takes effect and is
    discarded); ``bought``: it is a buy (cards that react to a buy see it)."""
    from kbgrules.king_of_tokyo.cards.base import HOOKS
    from kbgrules.king_of_tokyo.state import UnsupportedCardError

    card = st.cards[cid]
    if card.hook is not None and card.hook not in HOOKS:
        raise UnsupportedCardError(f"kbg check cannot replay {card.name} yet (its effect needs the "
                                   f"{card.hook!r} hook, not written yet)")
    owned = list(m.cards) + [f"tile:{t}" for t in m.tiles]
    if card.type == "keep":
        m.cards.append(cid)
    else:
        st.discards[cid] += 1
    for e in card.effects:
        if e["when"] == "buy":
            st.card_effect(m, e)
    if card.hook is not None:
        HOOKS[card.hook].on_buy(st, m)
    if bought:
        for key in owned:
            for e in st.cards[key].effects:
                if e["when"] == "buy_other" and not m.eliminated:
                    st.apply_gains(m, e)


# --------------------------------------------------------------------------- The King


class SimianScamper(Hook):
    """``play simian-scamper`` instead of ``yield``: the owner, hurt by smashes in Tokyo, leaves Tokyo,
    gets that life back (as with Jets) and loses no life for the rest of the turn."""

    card = _key("simian-scamper")

    def may_play(self, st: KingOfTokyoState, i: int, args: Sequence[str]) -> None:
        _resolve_now(st)
        if st.phase != "decide" or i not in st.pending:
            raise _refuse(st, "simian-scamper", "it is played to yield Tokyo after smashes took life from its owner")

    def use(self, st: KingOfTokyoState, i: int, args: Sequence[str]) -> None:
        from kbgrules.king_of_tokyo.state import Decide

        m = st.monsters[i]
        if "jets" not in st.in_play(m):  # Jets gives the same life back on yielding: not twice
            m.hp += st.smash_damage.get(i, 0)
        m.shielded_turn = st.turn_number
        st._decide(Decide(i, True))


class JungleFrenzy(Hook):
    card = _key("jungle-frenzy")

    def may_play(self, st: KingOfTokyoState, i: int, args: Sequence[str]) -> None:
        _own_buy(st, i, "jungle-frenzy", "it is played")
        if st.monsters[i].in_tokyo or not st.smash_damage:
            raise _refuse(st, "jungle-frenzy", "its owner's smashes must have hurt the monster in Tokyo this "
                                               "turn without the owner taking Tokyo")

    def use(self, st: KingOfTokyoState, i: int, args: Sequence[str]) -> None:
        st.extra_turn = True


class ChestThumping(Hook):
    """``use chest-thumping MONSTER``: a monster the owner's smashes hurt in Tokyo must yield."""

    card = _key("chest-thumping")

    def target(self, st: KingOfTokyoState, i: int, args: Sequence[str]) -> int:
        if i != st.active:
            raise _refuse(st, "chest-thumping", "it works on its owner's turn")
        _resolve_now(st)
        if len(args) != 1:
            raise _refuse(st, "chest-thumping", "write: NAME use chest-thumping MONSTER")
        t = _monster(st, "chest-thumping", args[0])
        if st.phase != "decide" or t not in st.pending:
            raise _refuse(st, "chest-thumping", f"{args[0]} is not in Tokyo deciding to yield after "
                                                "the owner's smashes")
        return t

    def may_play(self, st: KingOfTokyoState, i: int, args: Sequence[str]) -> None:
        if args:
            self.target(st, i, args)

    def use(self, st: KingOfTokyoState, i: int, args: Sequence[str]) -> None:
        from kbgrules.king_of_tokyo.state import Decide

        st._decide(Decide(self.target(st, i, args), True))


class TokyoRush(Hook):
    """Monkey Rush (``play monkey-rush``) and Feline Motor (``play|use feline-motor``): another monster's
    dice have just resolved (and its Tokyo decisions are made); the owner takes the free place in Tokyo
    before that monster's Enter Tokyo step. The replay takes that step back and enters the owner; then
    the active monster enters what is still free (Monkey Rush) or nothing (Feline Motor)."""

    def __init__(self, card: str, permanent: bool) -> None:
        self.card = _key(card)
        self.id = card
        self.permanent = permanent

    def check(self, st: KingOfTokyoState, i: int, args: Sequence[str]) -> tuple[dict[str, Any], str, list[Any]]:
        from kbgrules.king_of_tokyo.state import Decide, Evolve, Keep, Take

        if args:
            raise _refuse(st, self.id, f"write: NAME {'use' if self.permanent else 'play'} {self.id} (no arguments)")
        if i == st.active:
            raise _refuse(st, self.id, "it is played in another monster's turn")
        _after_rolling(st)
        snap = st.enter_snapshot
        since = st.history[snap[1]:] if snap is not None else []
        if snap is None or snap[0] != st.turn_number or st.phase != "buy" or any(
                not isinstance(a, Keep | Decide | Evolve | Take) for a in since):
            raise _refuse(st, self.id, "it is played right after the active monster's dice resolve (and its Tokyo "
                                       "decisions), before anything else happens in the turn")
        state = snap[2]
        before = state["monsters"]
        if before[i].in_tokyo or before[i].eliminated:
            raise _refuse(st, self.id, f"{before[i].name} is in Tokyo already")
        if self.permanent:
            start = st.turn_ends[-1][1][i][3] if st.turn_ends else "outside"
            if start in ("city", "bay"):
                raise _refuse(st, self.id, f"{before[i].name} was in Tokyo when the turn began")
        taken = {o.location for o in before if not o.eliminated}
        space = "city" if "city" not in taken else "bay" if st.bay_open() and "bay" not in taken else ""
        if not space:
            raise _refuse(st, self.id, "Tokyo has no free place")
        return state, space, [a for a in since if isinstance(a, Evolve | Take)]

    def may_play(self, st: KingOfTokyoState, i: int, args: Sequence[str]) -> None:
        self.check(st, i, args)  # Feline Motor too acts as it is played (Board Game Arena)

    def on_buy(self, st: KingOfTokyoState, m: Monster) -> None:
        self.use(st, st.monsters.index(m), ())

    def use(self, st: KingOfTokyoState, i: int, args: Sequence[str]) -> None:
        state, space, replay = self.check(st, i, args)
        m = st.monsters[i]
        kept = {f: getattr(m, f) for f in ("hand", "evo_deck", "evo_discard", "evolutions", "secret", "icy")}
        log = list(st.log)
        saved = state.pop("monsters")
        st._restore(state)  # back to the Enter Tokyo step, the card played
        for live, before in zip(st.monsters, saved, strict=True):  # the same Monster objects
            for field in dataclasses.fields(before):
                setattr(live, field.name, getattr(before, field.name))
        st.enter_snapshot = None
        for f, v in kept.items():
            setattr(m, f, v)
        st.log = log[:len(state["log"])] + [x for x in log[len(state["log"]):] if "plays the evolution" in x]
        m.location = space
        r = st.rs.enter_reward
        st.gain(m, r.resource, r.amount)
        st.log.append(f"{m.name} enters Tokyo {'City' if space == 'city' else 'Bay'} ({_name(st, self.id)})")
        st.entered(m)
        if self.permanent:
            st.phase = "buy"  # the active monster does not enter
        else:
            st._enter()
        for a in replay:  # the draws and tiles taken since, unchanged
            st._apply(a)


class AlphaMale(Hook):
    card = _key("alpha-male")

    def on_smash_damage(self, st: KingOfTokyoState, victim: int) -> None:
        key = f"alpha-male:{st.active}"
        if key not in st.used_this_turn:
            st.used_this_turn.add(key)
            st.me.vp += 1


class TwasBeauty(Hook):
    card = _key("twas-beauty-killed-the-beast")

    def may_play(self, st: KingOfTokyoState, i: int, args: Sequence[str]) -> None:
        if not st.monsters[i].in_tokyo:
            raise _refuse(st, "twas-beauty-killed-the-beast", "its owner must be in Tokyo")

    def leave(self, st: KingOfTokyoState, m: Monster) -> None:
        _expire_own(st, m, "twas-beauty-killed-the-beast")
        m.vp = 0
        st.log.append(f"{m.name} leaves Tokyo and drops to 0 VP (Twas Beauty Killed the Beast)")

    def on_yield(self, st: KingOfTokyoState, i: int) -> None:
        self.leave(st, st.monsters[i])

    def on_turn_end(self, st: KingOfTokyoState, active: int) -> None:
        m = st.monsters[active]  # called once per holder (a copy by Icy Reflection too)
        if m.in_tokyo:
            m.vp += 1
        else:  # forced out of Tokyo (not by yielding) since
            self.leave(st, m)


# --------------------------------------------------------------------------- Gigazaur


class DetachableTail(Hook):
    card = _key("detachable-tail")

    def use(self, st: KingOfTokyoState, i: int, args: Sequence[str]) -> None:
        st.monsters[i].shielded_turn = st.turn_number


class SaurianAdaptability(Hook):
    """``play saurian-adaptability FACE NEW-FACE``: every die of the owner showing FACE turns to NEW-FACE."""

    card = _key("saurian-adaptability")

    def may_play(self, st: KingOfTokyoState, i: int, args: Sequence[str]) -> None:
        _own_roll(st, i, "saurian-adaptability")
        _faces(st, "saurian-adaptability", args, "FACE NEW-FACE")

    def use(self, st: KingOfTokyoState, i: int, args: Sequence[str]) -> None:
        old, new = _faces(st, "saurian-adaptability", args, "FACE NEW-FACE")
        st.dice = [new if d == old else d for d in st.dice]


class HeatVision(Hook):
    card = _key("heat-vision")

    def after_damage(self, st: KingOfTokyoState, i: int, lost: int, source: int | None) -> None:
        if st.smashing == i and source is not None and source != i:
            o = st.monsters[source]
            o.vp = max(0, o.vp - 1)


class DieChanger(Hook):
    """Gamma Breath (``use gamma-breath FACE``: to a Smash) and Tail Sweep (``use tail-sweep FACE 1|2``),
    once per turn while the owner is rolling."""

    def __init__(self, card: str, form: str, allowed: tuple[str, ...]) -> None:
        self.card = _key(card)
        self.id = card
        self.form = form
        self.allowed = allowed

    def check(self, st: KingOfTokyoState, i: int, args: Sequence[str]) -> tuple[str, str]:
        _own_roll(st, i, self.id)
        faces = _faces(st, self.id, args, self.form)
        new = faces[1] if len(faces) == 2 else self.allowed[0]
        if new not in self.allowed:
            raise _refuse(st, self.id, f"the die turns to {' or '.join(self.allowed)}")
        if f"{self.id}:{i}" in st.used_this_turn:
            raise _refuse(st, self.id, "it works once per turn")
        return faces[0], new

    def may_play(self, st: KingOfTokyoState, i: int, args: Sequence[str]) -> None:
        if args:
            self.check(st, i, args)

    def use(self, st: KingOfTokyoState, i: int, args: Sequence[str]) -> None:
        old, new = self.check(st, i, args)
        st.used_this_turn.add(f"{self.id}:{i}")
        st.dice[st.dice.index(old)] = new


# --------------------------------------------------------------------------- Meka Dragon


class ThisTurnOnly(Hook):
    """A temporary evolution whose effect lasts for its owner's turn: it leaves play when that turn ends."""

    lasting = ""

    def on_turn_start(self, st: KingOfTokyoState, m: Monster) -> None:
        _expire(st, m, self.lasting)

    def on_turn_end(self, st: KingOfTokyoState, active: int) -> None:
        if st.active in _holders(st, self.lasting):
            _expire(st, st.me, self.lasting)


class MechaBlast(ThisTurnOnly):
    card = _key("mecha-blast")
    lasting = "mecha-blast"

    def may_play(self, st: KingOfTokyoState, i: int, args: Sequence[str]) -> None:
        _own_roll(st, i, "mecha-blast")

    def use(self, st: KingOfTokyoState, i: int, args: Sequence[str]) -> None:
        _linger(st, st.monsters[i], "mecha-blast")

    def deal_damage(self, st: KingOfTokyoState, owner: int, victim: int, amount: int) -> int:
        return amount + 2 if st.smashing == victim and owner == st.active else amount



class DestructiveAnalysis(Hook):
    card = _key("destructive-analysis")

    def may_play(self, st: KingOfTokyoState, i: int, args: Sequence[str]) -> None:
        _own_roll(st, i, "destructive-analysis")

    def use(self, st: KingOfTokyoState, i: int, args: Sequence[str]) -> None:
        st.gain_energy(st.monsters[i], st.dice.count("smash"))


class TuneUp(Hook):
    """``play tune-up`` before the first roll, outside Tokyo: heal 4, gain 2 energy; the turn is over at
    once (no roll, no buy, no end-of-turn effects; the log goes on with the next monster's turn)."""

    card = _key("tune-up")

    def may_play(self, st: KingOfTokyoState, i: int, args: Sequence[str]) -> None:
        _before_roll(st, i, "tune-up")
        if st.monsters[i].in_tokyo:
            raise _refuse(st, "tune-up", "its owner must be outside Tokyo")

    def use(self, st: KingOfTokyoState, i: int, args: Sequence[str]) -> None:
        m = st.monsters[i]
        st.heal(m, 4)
        st.gain_energy(m, 2)
        st.log.append(f"{m.name}'s turn ends (Tune-Up)")
        st.turn_ends.append((st.active, [(o.hp, o.vp, o.energy, o.location, o.eliminated, o.wickedness)
                                        for o in st.monsters]))
        st._check_end()
        if st.over is None:
            st._next_turn()


class BreathOfDoom(Hook):
    card = _key("breath-of-doom")

    def dealt_damage(self, st: KingOfTokyoState, owner: int, victim: int, lost: int) -> None:
        key = f"breath-of-doom:{owner}"
        if not st.monsters[victim].in_tokyo or key in st.used_this_turn:
            return
        st.used_this_turn.add(key)
        for j in st.alive():
            if j not in (owner, victim) and not st.monsters[j].in_tokyo:
                st.damage(j, 1, owner)


class LightningArmor(Hook):
    """``use lightning-armor FACE ...`` after the owner lost life to another monster this turn: the dice
    rolled, one per life lost then; each Smash makes that monster lose 1 life. Each loss is answered once."""

    card = _key("lightning-armor")

    def after_damage(self, st: KingOfTokyoState, i: int, lost: int, source: int | None) -> None:
        if source is None or source == i:
            return
        m = st.monsters[i]
        key = f"lightning-armor@{st.turn_number}#{len(st.history)}>{source}"  # one per action and dealer
        m.stored[key] = m.stored.get(key, 0) + lost

    def use(self, st: KingOfTokyoState, i: int, args: Sequence[str]) -> None:
        from kbgrules.king_of_tokyo.state import face

        m = st.monsters[i]
        now = f"lightning-armor@{st.turn_number}#"
        for key in [k for k in m.stored if k.startswith("lightning-armor@") and not k.startswith(now)]:
            del m.stored[key]  # a loss of an earlier turn
        waiting = [k for k in m.stored if k.startswith("lightning-armor@")]
        if not waiting:
            raise _refuse(st, "lightning-armor", f"no other monster has made {m.name} lose life this turn "
                                                 "(or its dice were rolled already)")
        match = [k for k in waiting if m.stored[k] == len(args)]
        if not match:
            lost = " or ".join(str(m.stored[k]) for k in waiting)
            raise _refuse(st, "lightning-armor", f"roll one die per life lost: {lost}, not {len(args)}")
        key = match[0]
        faces = []
        for a in args:
            f = face(a)
            if f is None:
                raise st._fail("kot-bad-face", face=a)
            faces.append(f)
        del m.stored[key]
        dealer = int(key.rsplit(">", 1)[1])
        st.log.append(f"{m.name} rolls {' '.join(faces)} for Lightning Armor")
        st.damage(dealer, faces.count("smash"), i)


class ClawsOfSteel(Hook):
    card = _key("claws-of-steel")

    def deal_damage(self, st: KingOfTokyoState, owner: int, victim: int, amount: int) -> int:
        if owner != st.active:
            return amount
        before = sum(lost for v, s, lost, _ in st.turn_losses if v == victim and s == owner)
        later = 0  # what the owner's evolutions whose hooks run after this one will add
        if _after_in_play(st, owner, "claws-of-steel", "mecha-blast") and st.smashing == victim:
            later += 2
        if _after_in_play(st, owner, "claws-of-steel", "target-acquired") and \
                st.monsters[owner].stored.get("target-acquired") == victim:
            later += 1
        return amount + 1 if before + amount + later >= 3 else amount


class TargetAcquired(Hook):
    """``use target-acquired MONSTER``: a monster whose smashes hurt the owner this turn gets the Target
    token; the owner then makes it lose 1 more life each time."""

    card = _key("target-acquired")

    def check(self, st: KingOfTokyoState, i: int, args: Sequence[str]) -> int:
        if len(args) != 1:
            raise _refuse(st, "target-acquired", "write: NAME use target-acquired MONSTER")
        t = _monster(st, "target-acquired", args[0])
        if not any(v == i and s == t and smash for v, s, _, smash in st.turn_losses):
            raise _refuse(st, "target-acquired", f"{args[0]}'s smashes have not hurt its owner this turn")
        return t

    def may_play(self, st: KingOfTokyoState, i: int, args: Sequence[str]) -> None:
        if args:
            self.check(st, i, args)

    def use(self, st: KingOfTokyoState, i: int, args: Sequence[str]) -> None:
        st.monsters[i].stored["target-acquired"] = self.check(st, i, args)

    def deal_damage(self, st: KingOfTokyoState, owner: int, victim: int, amount: int) -> int:
        return amount + 1 if st.monsters[owner].stored.get("target-acquired") == victim else amount


# --------------------------------------------------------------------------- Alienoid


class PrecisionFieldSupport(Hook):
    """``play precision-field-support CARD ...``: the Power cards turned over from the top of the deck, in
    order, until a Keep card whose printed cost is 4 or less; it goes into play for free, the others are
    discarded."""

    card = _key("precision-field-support")

    def check(self, st: KingOfTokyoState, args: Sequence[str]) -> list[str]:
        if not args:
            raise _refuse(st, "precision-field-support", "write: NAME play precision-field-support CARD ... "
                                                         "(the cards turned over, the last one kept)")
        cards = [_card(st, "precision-field-support", a) for a in args]
        for k, c in enumerate(cards):
            fits = st.cards[c].type == "keep" and st.cards[c].cost <= 4
            if fits != (k == len(cards) - 1):
                why = (f"{st.cards[c].name} is a Keep card costing 4 or less: the turning over stops there"
                       if fits else f"{st.cards[c].name} is not a Keep card costing 4 or less: it cannot be kept")
                raise _refuse(st, "precision-field-support", why)
        return cards

    def may_play(self, st: KingOfTokyoState, i: int, args: Sequence[str]) -> None:
        _deck_check(st, self.check(st, args))

    def use(self, st: KingOfTokyoState, i: int, args: Sequence[str]) -> None:
        cards = self.check(st, args)
        m = st.monsters[i]
        for c in cards:
            _from_deck(st, c)
        for c in cards[:-1]:
            st.discards[c] += 1
        st.log.append(f"{m.name} puts {st.cards[cards[-1]].name} into play (Precision Field Support)")
        _gain_card(st, m, cards[-1])


class AngerBatteries(Hook):
    card = _key("anger-batteries")

    def use(self, st: KingOfTokyoState, i: int, args: Sequence[str]) -> None:
        st.gain_energy(st.monsters[i], sum(lost for v, _, lost, _ in st.turn_losses if v == i))


class AdaptingTechnology(Hook):
    """``use adapting-technology CARD CARD CARD`` in the owner's buy step: a free sweep (the three cards
    revealed); three uses, then the card is discarded."""

    card = _key("adapting-technology")

    def may_play(self, st: KingOfTokyoState, i: int, args: Sequence[str]) -> None:
        if args:
            _own_buy(st, i, "adapting-technology", "its tokens are spent")

    def on_buy(self, st: KingOfTokyoState, m: Monster) -> None:
        m.stored["adapting-technology"] = 3

    def use(self, st: KingOfTokyoState, i: int, args: Sequence[str]) -> None:
        from kbgrules.king_of_tokyo.state import Sweep

        m = st.monsters[i]
        _own_buy(st, i, "adapting-technology", "its tokens are spent")
        snapshot = st._snapshot()
        m.energy += st.rs.sweep_cost  # the sweep is free
        try:
            st._market_action(Sweep(i, tuple(st.card_id(a) or a for a in args)))
        except IllegalMoveError:
            st._restore(snapshot)
            raise
        m.stored["adapting-technology"] -= 1
        if m.stored["adapting-technology"] <= 0:
            _expire_own(st, m, "adapting-technology")


class FunnyLookingButDangerous(Hook):
    card = _key("funny-looking-but-dangerous")

    def on_resolve(self, st: KingOfTokyoState, m: Monster, smashes: int) -> int:
        if st.dice.count("2") >= 3:
            for j in st.alive():
                if j != st.active:
                    st.damage(j, 1, st.active)
        return smashes


class ExoticArms(Hook):
    """``use exotic-arms`` before the first roll puts 2 energy on the card; the dice settle the bet."""

    card = _key("exotic-arms")

    def check(self, st: KingOfTokyoState, i: int) -> None:
        _before_roll(st, i, "exotic-arms")
        m = st.monsters[i]
        if "exotic-arms" in m.stored:
            raise _refuse(st, "exotic-arms", "its 2 energy are on it already")
        if m.energy < 2:
            raise st._fail("kot-no-energy", monster=m.name, need=2, have=m.energy, what="Exotic Arms")

    def may_play(self, st: KingOfTokyoState, i: int, args: Sequence[str]) -> None:
        if args:
            raise _refuse(st, "exotic-arms", "write: NAME use exotic-arms (no arguments)")

    def use(self, st: KingOfTokyoState, i: int, args: Sequence[str]) -> None:
        self.check(st, i)
        m = st.monsters[i]
        m.energy -= 2
        m.stored["exotic-arms"] = 2

    def on_resolve(self, st: KingOfTokyoState, m: Monster, smashes: int) -> int:
        if m.stored.pop("exotic-arms", 0):
            if st.dice.count("smash") >= 3:
                st.gain_energy(m, 2)
                st.used_this_turn.add(f"exotic-arms-hit:{st.active}")
            else:
                st.damage(st.active, 2, st.active)
        return smashes

    def deal_damage(self, st: KingOfTokyoState, owner: int, victim: int, amount: int) -> int:
        hit = st.smashing == victim and f"exotic-arms-hit:{owner}" in st.used_this_turn
        return amount + 2 if hit else amount


class MothershipSupport(Hook):
    card = _key("mothership-support")

    def use(self, st: KingOfTokyoState, i: int, args: Sequence[str]) -> None:
        m = st.monsters[i]
        if i != st.active:
            raise _refuse(st, "mothership-support", "it is used during its owner's turn")
        if m.hp >= st.max_hp(m):
            raise _refuse(st, "mothership-support", f"{m.name} has all its life already")
        if m.energy < 1:
            raise st._fail("kot-no-energy", monster=m.name, need=1, have=m.energy, what="Mothership Support")
        _once(st, i, "mothership-support")
        m.energy -= 1
        st.heal(m, 1)


class SuperiorAlienTechnology(Hook):
    """``use superior-alien-technology buy CARD : REVEALED-CARD`` in the owner's buy step: a market Keep card
    bought for half its cost (rounded up), marked with a UFO token (3 marked cards at most per copy of the
    evolution). ``use superior-alien-technology FACE ...`` at the start of the owner's turn, before its
    first roll (which waits for it): one die per marked card still held, in the order they were bought;
    each Smash discards its card."""

    card = _key("superior-alien-technology")
    id = "superior-alien-technology"

    def marked(self, m: Monster) -> list[str]:
        """The owner's cards with a UFO token (a card that left its hand loses its token)."""
        held = Counter(m.cards)
        keep = []
        for c in m.ufo:
            if held[c] > 0:
                held[c] -= 1
                keep.append(c)
        m.ufo = keep
        return keep

    def parse_buy(self, st: KingOfTokyoState, args: Sequence[str]) -> tuple[str, str | None]:
        texts = list(args)
        if not texts or (":" in texts and (texts.index(":") != 1 or len(texts) != 3)) or \
                (":" not in texts and len(texts) != 1):
            raise _refuse(st, self.id, "write: NAME use superior-alien-technology buy CARD : REVEALED-CARD")
        cid = _card(st, self.id, texts[0])
        return cid, _card(st, self.id, texts[2]) if len(texts) == 3 else None

    def check_buy(self, st: KingOfTokyoState, i: int, cid: str) -> int:
        """The price (half the cost, rounded up), once the buy is known to be possible so far."""
        _own_buy(st, i, self.id, "it buys")
        m = st.monsters[i]
        if st.cards[cid].type != "keep":
            raise _refuse(st, self.id, f"{st.cards[cid].name} is not a Keep card")
        limit = 3 * max(1, st.in_play(m).count(self.card))  # played with this buy: one copy
        if len(self.marked(m)) >= limit:
            raise _refuse(st, self.id, f"{m.name} has {limit} cards with a UFO token already")
        price = (st.cost(cid, m) + 1) // 2
        if cid in st.market and m.energy < price:
            raise st._fail("kot-no-energy", monster=m.name, need=price, have=m.energy, what=st.cards[cid].name)
        return price

    def check_roll(self, st: KingOfTokyoState, i: int, args: Sequence[str]) -> list[str]:
        from kbgrules.king_of_tokyo.state import face

        _before_roll(st, i, self.id)
        m = st.monsters[i]
        marked = self.marked(m)
        if not marked:
            raise _refuse(st, self.id, f"no card of {m.name} has a UFO token")
        if f"{self.id}:{i}" in st.used_this_turn:
            raise _refuse(st, self.id, "its dice are rolled once per turn")
        if len(args) != len(marked):
            names = ", ".join(st.cards[c].name for c in marked)
            raise _refuse(st, self.id, f"roll one die per card with a UFO token, in this order: {names} "
                                       f"({len(marked)} dice, not {len(args)})")
        faces = []
        for a in args:
            f = face(a)
            if f is None:
                raise st._fail("kot-bad-face", face=a)
            faces.append(f)
        return faces

    def may_play(self, st: KingOfTokyoState, i: int, args: Sequence[str]) -> None:
        if args and args[0].lower() == "buy":
            self.check_buy(st, i, self.parse_buy(st, args[1:])[0])
        elif args:
            raise _refuse(st, self.id, "no card has a UFO token before it is in play")

    def use(self, st: KingOfTokyoState, i: int, args: Sequence[str]) -> None:
        from kbgrules.king_of_tokyo.state import Buy

        m = st.monsters[i]
        if not (args and args[0].lower() == "buy"):
            faces = self.check_roll(st, i, args)
            st.used_this_turn.add(f"{self.id}:{i}")
            st.log.append(f"{m.name} rolls {' '.join(faces)} for Superior Alien Technology")
            for c, f in zip(list(m.ufo), faces, strict=True):
                if f == "smash":
                    m.ufo.remove(c)
                    st.discard_card(m, c)
                    st.log.append(f"{m.name} discards {st.cards[c].name} (Superior Alien Technology)")
            return
        cid, reveal = self.parse_buy(st, args[1:])
        price = self.check_buy(st, i, cid)
        full = st.cost(cid, m)
        snapshot = st._snapshot()
        m.energy += full - price  # the market buy below charges the full cost
        try:
            st._market_action(Buy(i, cid, reveal))
        except IllegalMoveError:
            st._restore(snapshot)
            raise
        m.ufo.append(cid)
        st.log.append(f"{m.name} buys {st.cards[cid].name} for {price} energy with a UFO token "
                      "(Superior Alien Technology)")

    def before_roll(self, st: KingOfTokyoState, m: Monster) -> None:
        i = st.monsters.index(m)
        if self.marked(m) and f"{self.id}:{i}" not in st.used_this_turn:
            raise st._fail("kot-unexpected", got="a first roll",
                           expected=f"{m.name}'s Superior Alien Technology dice ({m.name} use "
                                    f"superior-alien-technology FACE ..., one die per card with a UFO token)")


# --------------------------------------------------------------------------- Space Penguin


class ColdWave(Hook):
    """Stays in front of its owner; every other monster's turn starts with one die fewer."""

    card = _key("cold-wave")

    def use(self, st: KingOfTokyoState, i: int, args: Sequence[str]) -> None:
        _linger(st, st.monsters[i], "cold-wave")
        if i != st.active and st.phase == "roll" and not st.rolls:
            st.fewer_dice += 1  # the monster about to roll already rolls one die fewer

    def on_turn_end(self, st: KingOfTokyoState, active: int) -> None:
        if _holders(st, "cold-wave"):
            st.fewer_dice_next += 1  # taken back when the owner's own turn starts

    def on_turn_start(self, st: KingOfTokyoState, m: Monster) -> None:
        if "cold-wave" in m.evolutions:
            st.fewer_dice = max(0, st.fewer_dice - 1)
            _expire(st, m, "cold-wave")


class DeepDive(Hook):
    """``play deep-dive A B C keep B``: the top 3 cards of the Power deck (fewer if it holds fewer); one goes
    into play for free, the others go under the deck."""

    card = _key("deep-dive")

    def check(self, st: KingOfTokyoState, args: Sequence[str]) -> tuple[list[str], str]:
        words = [a.lower() for a in args]
        k = words.index("keep") if "keep" in words else len(words)
        seen = [_card(st, "deep-dive", a) for a in args[:k]]
        if k < len(words):
            kept = [_card(st, "deep-dive", a) for a in args[k + 1:]]
        else:  # one card turned over: it is the one kept
            kept = seen[:1] if len(seen) == 1 else []
        left = sum(st.deck.values())
        if not left:
            raise _refuse(st, "deep-dive", "the Power deck is empty")
        if len(seen) != min(3, left) or len(kept) != 1 or kept[0] not in seen:
            raise _refuse(st, "deep-dive", f"write: NAME play deep-dive CARD ... keep CARD ({min(3, left)} cards "
                                           "turned over from the top of the deck, one of them kept)")
        return seen, kept[0]

    def may_play(self, st: KingOfTokyoState, i: int, args: Sequence[str]) -> None:
        _deck_check(st, self.check(st, args)[0])

    def use(self, st: KingOfTokyoState, i: int, args: Sequence[str]) -> None:
        seen, kept = self.check(st, args)
        m = st.monsters[i]
        for c in seen:
            _from_deck(st, c)
        rest = list(seen)
        rest.remove(kept)
        for c in rest:  # under the deck: back among the cards still to come
            st.deck[c] += 1
        st.log.append(f"{m.name} puts {st.cards[kept].name} into play (Deep Dive)")
        _gain_card(st, m, kept)


class MiraculousCatch(Hook):
    """``use miraculous-catch CARD [buy]`` in the owner's buy step, once per turn: CARD is turned up from
    the shuffled discard pile; with ``buy`` the owner buys it for 1 energy less, otherwise it stays there."""

    card = _key("miraculous-catch")

    def check(self, st: KingOfTokyoState, i: int, args: Sequence[str]) -> tuple[str, bool]:
        if len(args) not in (1, 2) or (len(args) == 2 and args[1].lower() != "buy"):
            raise _refuse(st, "miraculous-catch", "write: NAME use miraculous-catch CARD [buy]")
        cid = _card(st, "miraculous-catch", args[0])
        _own_buy(st, i, "miraculous-catch", "it is used")
        if f"miraculous-catch:{i}" in st.used_this_turn:
            raise _refuse(st, "miraculous-catch", "it works once per turn")
        if st.discards[cid] <= 0:
            raise _refuse(st, "miraculous-catch", f"no {st.cards[cid].name} is in the discard pile")
        return cid, len(args) == 2

    def may_play(self, st: KingOfTokyoState, i: int, args: Sequence[str]) -> None:
        if args:
            self.check(st, i, args)

    def use(self, st: KingOfTokyoState, i: int, args: Sequence[str]) -> None:
        cid, buy = self.check(st, i, args)
        m = st.monsters[i]
        st.used_this_turn.add(f"miraculous-catch:{i}")
        card = st.cards[cid]
        st.log.append(f"{m.name} turns up {card.name} from the discard pile (Miraculous Catch)")
        if not buy:
            return
        price = max(0, st.cost(cid, m) - 1)
        if m.energy < price:
            raise st._fail("kot-no-energy", monster=m.name, need=price, have=m.energy, what=card.name)
        for _, hook in st.hooks_of(m):
            hook.may_buy(st, m, cid)
        m.energy -= price
        st.discards[cid] -= 1
        st.bought = True
        _gain_card(st, m, cid, bought=True)


class Blizzard(Hook):
    """``play blizzard`` in the owner's turn: until its next turn starts, the other monsters roll once
    and may not yield Tokyo."""

    card = _key("blizzard")

    def may_play(self, st: KingOfTokyoState, i: int, args: Sequence[str]) -> None:
        if i != st.active:
            raise _refuse(st, "blizzard", "it is played in its owner's turn")

    def use(self, st: KingOfTokyoState, i: int, args: Sequence[str]) -> None:
        _linger(st, st.monsters[i], "blizzard")

    def others_max_rolls(self, st: KingOfTokyoState, owner: int) -> int | None:
        return 1

    def may_yield(self, st: KingOfTokyoState, owner: int, i: int) -> None:
        raise st._fail("kot-yield-not-allowed", monster=st.monsters[i].name,
                       why=f"{st.monsters[owner].name}'s Blizzard is in play")

    def on_turn_start(self, st: KingOfTokyoState, m: Monster) -> None:
        _expire(st, m, "blizzard")


class BlackDiamond(Hook):
    """The VP for entering Tokyo is an effect in the data; this is the VP for staying."""

    card = _key("black-diamond")

    def on_stay(self, st: KingOfTokyoState, i: int) -> None:
        st.monsters[i].vp += 1


class IcyReflection(Hook):
    """``play icy-reflection CARD``: the card becomes a copy of CARD, a permanent evolution (not another Icy
    Reflection) in play in front of any monster, as if its owner had just played it (``Monster.icy``; the
    engine's ``in_play`` adds the copy while someone has CARD in play). The copy is used as the card
    itself: ``use CARD ...``. Once CARD has left play, Icy Reflection is discarded (at the next turn's
    start or end at the latest)."""

    card = _key("icy-reflection")
    id = "icy-reflection"

    def target(self, st: KingOfTokyoState, args: Sequence[str]) -> str:
        if len(args) != 1:
            raise _refuse(st, self.id, "write: NAME play icy-reflection EVOLUTION (a permanent evolution in play)")
        word = _slug(args[0])
        eid = next((c.id for c in st.rs.evolutions if word in (c.id, _slug(c.name))), None)
        if eid is None:
            raise _refuse(st, self.id, f"{args[0]!r} is not an evolution card")
        name = _name(st, eid)
        if st.cards[_key(eid)].type != "permanent" or eid == self.id:
            raise _refuse(st, self.id, f"it copies a permanent evolution other than Icy Reflection, not {name}")
        if not any(eid in o.evolutions for o in st.monsters if not o.eliminated):
            raise _refuse(st, self.id, f"no monster has {name} in play")
        return eid

    def may_play(self, st: KingOfTokyoState, i: int, args: Sequence[str]) -> None:
        from kbgrules.king_of_tokyo.cards.base import HOOKS

        eid = self.target(st, args)
        hook = st.cards[_key(eid)].hook
        if hook is not None and hook in HOOKS:
            HOOKS[hook].may_play(st, i, ())  # played as that card would be (Feline Motor: its moment)

    def on_buy(self, st: KingOfTokyoState, m: Monster) -> None:
        m.icy = None

    def use(self, st: KingOfTokyoState, i: int, args: Sequence[str]) -> None:
        from kbgrules.king_of_tokyo.cards.base import HOOKS

        m = st.monsters[i]
        if m.icy is not None:
            raise _refuse(st, self.id, f"it copies {_name(st, m.icy)} already")
        eid = self.target(st, args)
        m.icy = eid
        copied = st.cards[_key(eid)]
        st.log.append(f"{m.name}'s Icy Reflection copies {copied.name}")
        for e in copied.effects:
            if e["when"] == "play":
                st.card_effect(m, e)
        hook = copied.hook
        if hook is not None and hook in HOOKS:
            HOOKS[hook].on_buy(st, m)

    def drop(self, st: KingOfTokyoState, m: Monster) -> None:
        if m.icy is not None and not any(m.icy in o.evolutions for o in st.monsters if not o.eliminated):
            st.log.append(f"{m.name} discards Icy Reflection ({_name(st, m.icy)} has left play)")
            _expire(st, m, self.id)
            m.icy = None

    def on_turn_start(self, st: KingOfTokyoState, m: Monster) -> None:
        self.drop(st, m)

    def on_turn_end(self, st: KingOfTokyoState, active: int) -> None:
        self.drop(st, st.monsters[active])


# --------------------------------------------------------------------------- Cyber Kitty


class NineLives(Hook):
    """``play nine-lives`` reveals it: it lies in front of its owner and saves it the next time it drops to
    0 life (Board Game Arena applies it by itself from the hand at that moment)."""

    card = _key("nine-lives")

    def use(self, st: KingOfTokyoState, i: int, args: Sequence[str]) -> None:
        _linger(st, st.monsters[i], "nine-lives")

    def on_zero_life(self, st: KingOfTokyoState, i: int) -> bool:
        m = st.monsters[i]
        if "nine-lives" not in m.evolutions:
            return False
        for c in list(m.cards):
            st.discard_card(m, c)
        m.mimic = None
        for e in m.evolutions:
            m.evo_discard[e] += 1
        for e in m.hand:
            if e != "?":  # a secret card is discarded unseen
                m.evo_discard[e] += 1
        m.evolutions, m.hand, m.stored, m.icy, m.ufo = [], [], {}, None, []
        for k in m.tokens:
            m.tokens[k] = 0
        m.energy = 0
        m.location = "outside"
        m.hp = 9
        m.vp = 9
        st.log.append(f"{m.name} comes back with 9 life and 9 VP (Nine Lives)")
        return True


class MegaPurr(Hook):
    """``play mega-purr NAME vp|energy ...``: each other monster that has VP or energy gives one of them."""

    card = _key("mega-purr")

    def choices(self, st: KingOfTokyoState, i: int, args: Sequence[str]) -> dict[int, str]:
        if len(args) % 2:
            raise _refuse(st, "mega-purr", "write: NAME play mega-purr MONSTER vp|energy ...")
        out: dict[int, str] = {}
        for who, what in zip(args[::2], args[1::2], strict=True):
            k = _monster(st, "mega-purr", who)
            o = st.monsters[k]
            what = {"star": "vp", "e": "energy"}.get(what.lower(), what.lower())
            if k == i or k in out or what not in ("vp", "energy"):
                raise _refuse(st, "mega-purr", "name each other monster once, with vp or energy")
            if (o.vp if what == "vp" else o.energy) <= 0:
                raise _refuse(st, "mega-purr", f"{o.name} has no {what.replace('vp', 'VP')} to give")
            out[k] = what
        for k in st.alive():
            o = st.monsters[k]
            if k != i and k not in out and (o.vp or o.energy):
                raise _refuse(st, "mega-purr", f"say what {o.name} gives (vp or energy)")
        return out

    def may_play(self, st: KingOfTokyoState, i: int, args: Sequence[str]) -> None:
        self.choices(st, i, args)

    def use(self, st: KingOfTokyoState, i: int, args: Sequence[str]) -> None:
        m = st.monsters[i]
        for k, what in self.choices(st, i, args).items():
            o = st.monsters[k]
            if what == "vp":
                o.vp -= 1
                m.vp += 1
            else:
                o.energy -= 1
                m.energy += 1


class CatNip(ThisTurnOnly):
    """``play cat-nip`` before the first roll: one roll only, and the dice count double."""

    card = _key("cat-nip")
    lasting = "cat-nip"

    def may_play(self, st: KingOfTokyoState, i: int, args: Sequence[str]) -> None:
        _before_roll(st, i, "cat-nip")

    def use(self, st: KingOfTokyoState, i: int, args: Sequence[str]) -> None:
        _linger(st, st.monsters[i], "cat-nip")
        st.bonus_rolls -= st.max_rolls() - 1

    def on_resolve(self, st: KingOfTokyoState, m: Monster, smashes: int) -> int:
        rs = st.rs
        counts = Counter(st.dice)
        for number in ("1", "2", "3"):  # the second half of everything the dice gave
            if counts[number] >= rs.set_size:
                m.vp += int(number) + counts[number] - rs.set_size
        st.gain_energy(m, counts["energy"])
        hearts = counts["heart"] - sum(st.cures.values()) - sum(n for _, n in st.heal_rays)
        if hearts > 0 and (not m.in_tokyo or rs.heal_in_tokyo):
            st.heal(m, hearts)
        return 2 * smashes



class PlayWithYourFood(Hook):
    """``use play-with-your-food MONSTER`` after rolling, before the dice resolve: if the owner's smashes
    would make that monster in Tokyo lose 2 or more life, it loses 2 less and gives 1 VP and 1 energy."""

    card = _key("play-with-your-food")

    def check(self, st: KingOfTokyoState, i: int, args: Sequence[str]) -> int:
        _own_roll(st, i, "play-with-your-food")
        if len(args) != 1:
            raise _refuse(st, "play-with-your-food", "write: NAME use play-with-your-food MONSTER")
        t = _monster(st, "play-with-your-food", args[0])
        if not st.monsters[t].in_tokyo or t == i:
            raise _refuse(st, "play-with-your-food", f"{args[0]} is not in Tokyo")
        return t

    def may_play(self, st: KingOfTokyoState, i: int, args: Sequence[str]) -> None:
        if args:
            self.check(st, i, args)

    def use(self, st: KingOfTokyoState, i: int, args: Sequence[str]) -> None:
        st.used_this_turn.add(f"play-with-your-food:{self.check(st, i, args)}")

    def deal_damage(self, st: KingOfTokyoState, owner: int, victim: int, amount: int) -> int:
        o = st.monsters[victim]
        if (st.smashing != victim or owner != st.active or amount < 2 or not o.in_tokyo
                or f"play-with-your-food:{victim}" not in st.used_this_turn):
            return amount
        m = st.monsters[owner]
        if o.vp:
            o.vp -= 1
            m.vp += 1
        if o.energy:
            o.energy -= 1
            m.energy += 1
        return amount - 2


# --------------------------------------------------------------------------- Pandakai


class PandaMonium(Hook):
    """The 6 energy for the owner are an effect in the data; every other monster gains 3."""

    card = _key("panda-monium")

    def use(self, st: KingOfTokyoState, i: int, args: Sequence[str]) -> None:
        for j in st.alive():
            if j != i:
                st.gain_energy(st.monsters[j], 3)


class EatsShootsAndLeaves(Hook):
    card = _key("eats-shoots-and-leaves")

    def may_play(self, st: KingOfTokyoState, i: int, args: Sequence[str]) -> None:
        _own_buy(st, i, "eats-shoots-and-leaves", "it is played")
        before = st.turn_ends[-1][1][i][3] if st.turn_ends else "outside"
        if not st.monsters[i].in_tokyo or before in ("city", "bay"):
            raise _refuse(st, "eats-shoots-and-leaves", "its owner must have entered Tokyo this turn")

    def use(self, st: KingOfTokyoState, i: int, args: Sequence[str]) -> None:
        m = st.monsters[i]
        victims = [j for j in st.alive() if j != i and not st.monsters[j].in_tokyo]
        st.gain_energy(m, 1)
        m.location = "outside"
        st.log.append(f"{m.name} leaves Tokyo (Eats, Shoots and Leaves)")
        for j in victims:
            st.damage(j, 2, i)


class Bamboozle(Hook):
    """``play bamboozle CARD [OTHER : REVEALED-CARD]`` in another monster's buy step, in place of its buy of
    CARD (never written as a buy line): it may not buy CARD this turn and buys OTHER at once, a card it can
    afford that the owner picks (and the card revealed to replace it). Without OTHER it buys nothing: no
    other card in the market is affordable."""

    card = _key("bamboozle")
    id = "bamboozle"

    def check(self, st: KingOfTokyoState, i: int, args: Sequence[str]) -> tuple[str, str | None, str | None]:
        texts = list(args)
        if len(texts) not in (1, 2, 4) or (len(texts) == 4 and texts[2] != ":"):
            raise _refuse(st, self.id, "write: NAME play bamboozle CARD [OTHER-CARD : REVEALED-CARD]")
        stopped = _card(st, self.id, texts[0])
        other = _card(st, self.id, texts[1]) if len(texts) > 1 else None
        reveal = _card(st, self.id, texts[3]) if len(texts) == 4 else None
        if i == st.active:
            raise _refuse(st, self.id, "it is played when another monster buys a card")
        _after_rolling(st)
        if st.phase != "buy":
            raise _refuse(st, self.id, "it is played in another monster's buy step")
        buyer = st.me

        def can_buy(c: str) -> bool:
            return c in st.market and st.cost(c, buyer) <= buyer.energy and st.buy_allowed(buyer, c)

        if not can_buy(stopped) or f"buy-forbidden:{st.active}:{stopped}" in st.used_this_turn:
            raise _refuse(st, self.id, f"{buyer.name} cannot buy {st.cards[stopped].name} now")
        left = [c for c in st.market if c != stopped and can_buy(c)]
        if other is None and left:
            names = ", ".join(st.cards[c].name for c in dict.fromkeys(left))
            raise _refuse(st, self.id, f"name the card {buyer.name} must buy instead ({names}) and the card "
                                       "revealed: play bamboozle CARD OTHER-CARD : REVEALED-CARD")
        if other is not None and other not in left:
            raise _refuse(st, self.id, f"{buyer.name} cannot buy {st.cards[other].name} instead")
        if other is not None and reveal is None and sum(st.deck.values()) > 0:
            raise _refuse(st, self.id, "name the card revealed to replace it: OTHER-CARD : REVEALED-CARD")
        return stopped, other, reveal

    def may_play(self, st: KingOfTokyoState, i: int, args: Sequence[str]) -> None:
        reveal = self.check(st, i, args)[2]
        if reveal is not None:
            _deck_check(st, [reveal])

    def use(self, st: KingOfTokyoState, i: int, args: Sequence[str]) -> None:
        from kbgrules.king_of_tokyo.state import Buy

        stopped, other, reveal = self.check(st, i, args)
        st.used_this_turn.add(f"buy-forbidden:{st.active}:{stopped}")
        st.log.append(f"{st.monsters[i].name} stops {st.me.name} buying {st.cards[stopped].name} (Bamboozle)")
        if other is not None:
            st._market_action(Buy(st.active, other, reveal))


class PandaExpress(Hook):
    card = _key("panda-express")

    def on_resolve(self, st: KingOfTokyoState, m: Monster, smashes: int) -> int:
        faces = set(st.dice)
        if {"1", "2", "3", "energy", "heart"} <= faces and ("smash" in faces or smashes > 0):
            m.vp += 2
            st.extra_turn = True
        return smashes


class BambooSupply(Hook):
    """``use bamboo-supply put`` (1 energy from the bank onto it) or ``use bamboo-supply take`` (all of
    it), once at the start of each of the owner's turns."""

    card = _key("bamboo-supply")

    def check(self, st: KingOfTokyoState, i: int, args: Sequence[str]) -> str:
        _before_roll(st, i, "bamboo-supply")
        what = args[0].lower() if len(args) == 1 else ""
        if what not in ("put", "take"):
            raise _refuse(st, "bamboo-supply", "write: NAME use bamboo-supply put|take")
        if f"bamboo-supply:{i}" in st.used_this_turn:
            raise _refuse(st, "bamboo-supply", "it works once per turn")
        return what

    def may_play(self, st: KingOfTokyoState, i: int, args: Sequence[str]) -> None:
        if args:
            self.check(st, i, args)

    def use(self, st: KingOfTokyoState, i: int, args: Sequence[str]) -> None:
        what = self.check(st, i, args)
        st.used_this_turn.add(f"bamboo-supply:{i}")
        m = st.monsters[i]
        if what == "put":
            m.stored["bamboo-supply"] = m.stored.get("bamboo-supply", 0) + 1
        else:
            m.energy += m.stored.pop("bamboo-supply", 0)


class Pandarwinism(Hook):
    card = _key("pandarwinism-survival-of-the-cutest")

    def on_resolve(self, st: KingOfTokyoState, m: Monster, smashes: int) -> int:
        hearts = st.dice.count("heart")
        if hearts >= 3:
            m.vp += hearts - 2
        return smashes


class YinAndYang(Hook):
    """``use yin-and-yang`` while the owner is rolling: every die turns to its opposite face."""

    card = _key("yin-and-yang")

    def may_play(self, st: KingOfTokyoState, i: int, args: Sequence[str]) -> None:
        if args:
            raise _refuse(st, "yin-and-yang", "write: NAME use yin-and-yang (no arguments)")

    def use(self, st: KingOfTokyoState, i: int, args: Sequence[str]) -> None:
        _own_roll(st, i, "yin-and-yang")
        st.dice = [OPPOSITE[d] for d in st.dice]


HOOKS: dict[str, Hook] = {
    # The King
    "simian_scamper": SimianScamper(),
    "jungle_frenzy": JungleFrenzy(),
    "chest_thumping": ChestThumping(),
    "alpha_male": AlphaMale(),
    "monkey_rush": TokyoRush("monkey-rush", permanent=False),
    "twas_beauty_killed_the_beast": TwasBeauty(),
    # Gigazaur
    "detachable_tail": DetachableTail(),
    "saurian_adaptability": SaurianAdaptability(),
    "heat_vision": HeatVision(),
    "gamma_breath": DieChanger("gamma-breath", "FACE", ("smash",)),
    "tail_sweep": DieChanger("tail-sweep", "FACE NEW-FACE", ("1", "2")),
    # Meka Dragon
    "mecha_blast": MechaBlast(),
    "destructive_analysis": DestructiveAnalysis(),
    "tune_up": TuneUp(),
    "breath_of_doom": BreathOfDoom(),
    "claws_of_steel": ClawsOfSteel(),
    "lightning_armor": LightningArmor(),
    "target_acquired": TargetAcquired(),
    # Alienoid
    "precision_field_support": PrecisionFieldSupport(),
    "anger_batteries": AngerBatteries(),
    "adapting_technology": AdaptingTechnology(),
    "funny_looking_but_dangerous": FunnyLookingButDangerous(),
    "exotic_arms": ExoticArms(),
    "mothership_support": MothershipSupport(),
    "superior_alien_technology": SuperiorAlienTechnology(),
    # Space Penguin
    "cold_wave": ColdWave(),
    "black_diamond_stay_bonus": BlackDiamond(),
    "deep_dive": DeepDive(),
    "miraculous_catch": MiraculousCatch(),
    "blizzard": Blizzard(),
    "icy_reflection": IcyReflection(),
    # Cyber Kitty
    "nine_lives": NineLives(),
    "mega_purr": MegaPurr(),
    "feline_motor": TokyoRush("feline-motor", permanent=True),
    "cat_nip": CatNip(),
    "play_with_your_food": PlayWithYourFood(),
    # Pandakai
    "panda_monium_others_gain": PandaMonium(),
    "eats_shoots_and_leaves": EatsShootsAndLeaves(),
    "bamboozle": Bamboozle(),
    "panda_express": PandaExpress(),
    "bamboo_supply": BambooSupply(),
    "pandarwinism": Pandarwinism(),
    "yin_and_yang": YinAndYang(),
}
