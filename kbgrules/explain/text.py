"""Text analysis for ``kbg explain``: the same steps for a player's question and for the rule data.

A text becomes *terms*: lower-case, accent-free words, lightly stemmed (``yielding`` -> ``yield``),
with number words as digits; Korean words also give their syllable pairs. Game words are then
mapped to *concepts* of the games' glossaries (``rules_data/*/glossary.yaml``): ``fuir``, ``항복``,
``nhường`` and ``verlassen`` all give ``~yield``, so a question meets an entry that uses another
word, or another language, for the same thing. Dice notation (``1-1-1``, ``three 2s``) gives
``~number-set`` and ``~face-2``. Which games a question's words belong to, and which language it is
written in, are found here too. Nothing here knows a game: the glossaries carry that.

Stopwords and number words are language facts, not rules, so they live here rather than in
``rules_data``.
"""

from __future__ import annotations

import re
import unicodedata

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping
    from typing import Any

LANGS = ("en", "ko", "fr", "vi", "de", "es")
LANG_NAMES = {"en": "English", "ko": "Korean", "fr": "French", "vi": "Vietnamese", "de": "German", "es": "Spanish"}
INDEX_VERSION = 8  # of rules_data/explain-index.json; a shipped index of another version is rebuilt
CONCEPT = "~"  # concept terms start with this; words never do
WEAK_SIGN = 0.25  # how much a game word the other game's texts also use says about the game

_STOP = {
    "en": """a an the i i'm im my me we us our you your he she his her they them is are am be been can could
        do does did to in into of on at for with what whats how when where who which if it its this that
        there then than or and not no so as by from have has had get gets got happen happens happened
        rule rules about will would should must may might just any some all one still also only
        anyone someone question please thanks hi hello s t don doesn didn isn aren wasn but out up
        over then still also each every other more most very much many same even own too again once
        here there while because since though although yet whether either neither both during go goes
        going went""",
    "fr": """le la les l de des du d un une et est en dans que qui je j on peut il elle au aux pour sur ce
        se ne pas plus si ou mais avec son sa ses mon ma mes vous nous tu te me qu y a c est-ce
        faut-il peut-on doit comment quoi bonjour merci n m s sont être avoir cette ces cet leur
        leurs tout tous toute toutes aussi très bien alors donc car ici jeu jouer par pour""",
    "vi": """có không là và của được khi thì cho một những các này ở với mình bạn tôi nếu thì sao
        gì nào ai làm thế vậy hay hoặc đã đang sẽ phải cần nhé ạ ơi""",
    "de": """der die das den dem des ein eine einen einem einer und ist in im zu zum zur von mit auf für
        an am als auch aber oder wenn wann wie was wer wo ich du er sie es wir ihr man kann darf
        muss soll nicht kein keine noch nur bei nach aus so dann dass ob hat haben sein bin bist
        dies diese dieser dieses diesem jeder jede jedes jedem jeden sich mir mich dir dich ihm ihn uns
        euch wird werden wurde war waren einmal immer schon sehr mehr ganz also dabei dafür damit
        dann denn doch hier dort weil sondern sowie zwischen gibt geht spiel spielen""",
    "es": """el la los las lo un una unos unas y o de del al en que es se por para con no sí si su sus
        mi mis tu yo me te le les nos como cuando cuál qué quién puede puedo hay hola gracias está
        son ser pero más muy ya también este esta estos estas ese esa eso cada todo todos toda todas
        nuestro nuestra vuestro otro otra otros hace hacer tiene tienen tener juego jugar""",
}
_NUMBERS = {  # 0 to 12; "a/b": both are that number, "-" none (Spanish once is English "once")
    "en": "zero one two three four five six seven eight nine ten eleven twelve",
    "fr": "zéro un/une deux trois quatre cinq six sept huit neuf dix onze douze",
    "de": "null eins/ein/eine zwei drei vier fünf sechs sieben acht neun zehn elf zwölf",
    "es": "cero uno/una/un dos tres cuatro cinco seis siete ocho nueve diez - doce",
    "vi": "- một hai ba bốn năm sáu bảy tám chín mười",  # không: first "not", and ends a yes/no question
}  # Korean number words (세, 두...) are prefixes, not words: not read as digits
# Number words that are other words too (in another language, or once folded): digits only in a
# text of their language. Vietnamese ones fold to other words (bảy -> "bay", sáu -> "sau"), so they
# are read with their marks, in Vietnamese only.
_HOMOGRAPHS = {"en": "ten", "fr": "un une sept", "de": "null ein eine elf", "es": "uno una un dos tres"}
# Words that say which language a text is in, besides the stopwords and number words (detection only).
_TYPICAL = {
    "en": """why whose whom cannot let lets after before during until without against between through
        onto upon player players die dice see seen saw case""",
    "fr": """où quand même comme puis peux pouvez dois faut combien quel quelle quels quelles pourquoi
        avant après chaque lorsque lorsqu quelqu ça cela celui celle ceux été fait font ont suis à là
        déjà encore seulement toujours jamais rien sans sous vers contre pendant depuis chez avez
        avons moi joueur joueurs côté côtés celles tôt chose choses""",
    "de": """warum wieso welche welcher welches welchen wieviel viele dürfen müssen können kannst könnte
        würde sind habe hast ja nein nichts etwas jetzt wieder vor unter über gegen ohne durch um bis
        seine seinen seiner ihre ihren ihrem andere anderen anderer beim vom ins mein meine deine
        spieler ende manche rolle""",
    "es": """a dónde cuándo cómo cuánto cuánta cuántos cuántas porque puedes pueden podemos debo debe
        deben tengo tienes hasta desde sobre entre sin durante antes después cuáles quiénes algo nada
        siempre nunca vez veces ahora mismo misma mucho muchos poco jugador jugadores tras trae partir sea""",
    "vi": """đâu đặt người chơi lượt bài điểm máu nhiều bao nhiêu rồi trước sau trong ngoài muốn thể
        chỉ cũng mỗi tất cả bị ra vào lên xuống lại từ đến như nên thẻ xúc xắc lúc giữ đổ mua rút""",
}
_KO_PARTICLES = ("에서는", "에서", "으로", "에게", "까지", "부터", "보다", "처럼", "은", "는", "이", "가", "을",
                 "를", "에", "의", "도", "로", "와", "과", "만", "나", "랑")
# Letters of one language among the six (Vietnamese ones are strong signs: its own letters and
# the letters with its tone marks), and letters several share.
_OWN_LETTERS = {"vi": "ăđơưãõĩũìòýỳ" + "".join(map(chr, range(0x1EA0, 0x1EFA))), "fr": "çœæîïëûÿ",
                "de": "äöüß", "es": "ñ"}
_SHARED_LETTERS = {"àâèêôù": ("fr", "vi"), "áíóú": ("es", "vi"), "é": ("fr", "es", "vi")}
STRONG_LETTER, LETTER, SHARED_LETTER = 2.0, 1.0, 0.5  # per word, what its letters say


# --------------------------------------------------------------------------- characters and words


def _fold_char(c: str) -> str:
    if "\uac00" <= c <= "\ud7a3" or "\u1100" <= c <= "\u11ff" or "\u3130" <= c <= "\u318f":
        return c  # Hangul stays whole
    if c in "đĐ":
        return "d"
    if c == "ß":
        return "ss"
    return "".join(x for x in unicodedata.normalize("NFKD", c) if not unicodedata.combining(x))


class _Folded(dict[int, str]):
    """``str.translate``'s table for ``fold``: each character folded once, on first sight."""

    def __missing__(self, code: int) -> str:
        folded = self[code] = _fold_char(chr(code))
        return folded


_FOLDED = _Folded()


def fold(text: str) -> str:
    """Lower case, accents removed from Latin letters (Vietnamese and French typed without them match)."""
    if text.isascii():
        return text.lower()
    return unicodedata.normalize("NFC", text.casefold()).translate(_FOLDED)


_WORD = re.compile(r"[0-9a-z]+|[\uac00-\ud7a3]+")
_RAW_WORD = re.compile(r"[^\W_]+", re.UNICODE)
STOPWORDS = frozenset(fold(w) for ws in _STOP.values() for w in ws.split())


# Per language, its stopwords and typical words, folded: in a text of that language such a word is
# that language's word, never another language's glossary word (German "die" is not the English
# die, English "a 3" is not French "à trois"; a language's own glossary words still match).
COMMON_WORDS = {lang: frozenset(w for ws in (_STOP[lang], _TYPICAL[lang]) for w in _WORD.findall(fold(ws)))
                for lang in _STOP}


def _number_words(lang: str) -> dict[str, str]:
    return {w: str(n) for n, slot in enumerate(_NUMBERS[lang].split()) for w in slot.split("/") if w != "-"}


# number words read in any text, and per language those also read in a text of that language (folded)
_FREE_NUMBERS = {fold(w): n for lang, bound in _HOMOGRAPHS.items() for w, n in _number_words(lang).items()
                 if w not in bound.split()}
NUMBER_WORDS = {lang: {**_FREE_NUMBERS, **{fold(w): n for w, n in _number_words(lang).items() if w in bound.split()}}
                for lang, bound in _HOMOGRAPHS.items()}
_VI_NUMBERS = _number_words("vi")
_VI_NUMBER = re.compile(r"\b(?:" + "|".join(_VI_NUMBERS) + r")\b")


def is_hangul(word: str) -> bool:
    return "\uac00" <= word[0] <= "\ud7a3"


def stem(word: str) -> str:
    """A light, language-blind stem: plural and -ing/-ed endings and a final e go (``placing`` ->
    ``plac`` = ``place``). The same function runs on the data and on questions, so only
    consistency matters."""
    if len(word) <= 3 or not word.isalpha() or is_hangul(word):
        return word
    w = word
    if w.endswith("ies") and len(w) > 4:
        w = w[:-3] + "y"
    elif w.endswith(("ches", "shes", "sses", "xes")):
        w = w[:-2]
    elif w.endswith("s") and not w.endswith(("ss", "us", "is")):
        w = w[:-1]
    if w.endswith("ing") and len(w) > 5:
        w = w[:-3]
    elif w.endswith("ed") and len(w) > 4:
        w = w[:-2]
    if w.endswith("e") and len(w) > 3:
        w = w[:-1]
    return w


def korean_forms(word: str) -> list[str]:
    """The word, the word without a trailing particle, and its prefixes of two syllables or more."""
    forms = [word]
    for p in _KO_PARTICLES:
        if word.endswith(p) and len(word) > len(p):
            forms.append(word[:-len(p)])
            break
    forms.extend(word[:i] for i in range(2, len(word)))
    return forms


_GRID = re.compile(r"(\d)\s*[x×*]\s*(\d)")


_DIGIT_PLURAL = re.compile(r"\b([0-9])(?:s|'s|er)\b")


def words(text: str, lang: str | None = None) -> list[str]:
    """The folded words of ``text``: number words written as digits, ``5 x 5`` as ``5x5``, ``2s``
    (and German ``2er``) as ``2``. A number word that is another word too (``un``, ``dos``, ``bảy``)
    is a digit only when ``lang``, the text's language, is its own."""
    if lang == "vi":  # with its marks, before folding makes them other words
        text = _VI_NUMBER.sub(lambda m: _VI_NUMBERS[m.group()], unicodedata.normalize("NFC", text.casefold()))
    text = _DIGIT_PLURAL.sub(r"\1", _GRID.sub(r"\1x\2", fold(text)))
    numbers = NUMBER_WORDS.get(lang or "", _FREE_NUMBERS)
    return [numbers.get(w, w) for w in _WORD.findall(text)]


def phrase(text: str) -> str:
    return " ".join(_WORD.findall(fold(text)))


def tokens(text: str, lang: str | None = None) -> list[str]:
    """Plain word terms (no concepts): stems of the words that are not stopwords, and Korean
    syllable pairs."""
    return _tokens(words(text, lang))


def _tokens(ws: list[str]) -> list[str]:
    out: list[str] = []
    for w in ws:
        if is_hangul(w):
            out.extend([w] if len(w) == 1 else [w[i:i + 2] for i in range(len(w) - 1)])
        elif w not in STOPWORDS:
            out.append(stem(w))
    return out


# --------------------------------------------------------------------------- packed tables


class Packed:
    """A read-only mapping of strings stored as one text, ``"\nkey\tvalue\n..."``: the index's big
    tables (postings, phrases, glossary words) are looked up for a few keys per question, which
    costs less than decoding a JSON object of thousands of keys at start-up."""

    __slots__ = ("_text",)

    def __init__(self, text: str) -> None:
        self._text = text

    @staticmethod
    def pack(mapping: Mapping[str, str]) -> str:
        return "\n" + "".join(f"{k}\t{v}\n" for k, v in sorted(mapping.items()))

    def _find(self, key: str) -> int:
        """Where ``key``'s value starts, or -1: a binary search over the lines, which ``pack`` sorted
        (a scan of the text cost half of a question's time: ~185 lookups in up to 355 KB)."""
        text = self._text
        lo, hi = 1, len(text)  # whole lines: text[lo - 1] and text[hi - 1] are line ends
        while lo < hi:
            start = text.rfind("\n", lo - 1, (lo + hi) // 2) + 1
            tab = text.find("\t", start)
            found = text[start:tab]
            if found == key:
                return tab + 1
            if found < key:
                lo = text.index("\n", tab) + 1
            else:
                hi = start
        return -1

    def get(self, key: str, default: str | None = None) -> str | None:
        i = self._find(key)
        return default if i < 0 else self._text[i:self._text.index("\n", i)]

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and self._find(key) >= 0

    def __getitem__(self, key: str) -> str:
        value = self.get(key)
        if value is None:
            raise KeyError(key)
        return value

    def items(self) -> Iterable[tuple[str, str]]:
        for line in self._text.split("\n"):
            if line:
                k, _, v = line.partition("\t")
                yield k, v

    def __iter__(self) -> Iterable[str]:
        return (k for k, _ in self.items())

    def __len__(self) -> int:
        return self._text.count("\n") - 1


def table(value: Any) -> Any:
    """A stored table: a packed text becomes a :class:`Packed` view; a dict stays as it is."""
    return Packed(value) if isinstance(value, str) else value


def listed(value: Any) -> list[str]:
    """A table's value as a list (packed values are space-separated)."""
    if value is None:
        return []
    return value.split() if isinstance(value, str) else list(value)


def pack_glossary(glossary: Mapping[str, Any]) -> dict[str, Any]:
    """The compiled glossary as the index stores it: its big tables packed."""
    out = dict(glossary)
    for key in ("phrases", "langs"):
        out[key] = Packed.pack({k: " ".join(v) for k, v in glossary[key].items()})
    out["weak"] = Packed.pack(dict.fromkeys(glossary.get("weak", ()), ""))
    return out


# --------------------------------------------------------------------------- glossary


def glossary_key(term: str, lang: str | None = None) -> tuple[str, bool] | None:
    """How a glossary word of ``lang`` is matched: its words, stemmed and joined by spaces, and whether
    the accents must match too (a word that folds to a stopword: French ``dés`` is not ``des``)."""
    ws = words(term, lang)
    if not ws:
        return None
    key = " ".join(w if is_hangul(w) else stem(w) for w in ws)
    exact = len(ws) == 1 and ws[0] in STOPWORDS
    return (unicodedata.normalize("NFC", term.casefold()) if exact else key), exact


def compile_glossary(glossaries: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """``{game: {concept: {"words": {lang: [word, ...]}}}}`` -> the form the index stores:
    ``phrases`` (match key -> [concept, ...]), ``exact`` (accent-exact words), ``games``
    (concept -> games), ``langs`` (match key -> languages it is a word of), ``exact_langs`` (the
    same for the accent-exact words), ``own`` (for a key that is a word of several languages with
    other meanings: language -> its concepts; folded, Vietnamese ``rời`` is French ``roi``) and
    ``overlays`` (concept -> the editions and variants it names)."""
    phrases: dict[str, list[str]] = {}
    meanings: dict[str, dict[str, set[str]]] = {}  # match key -> concept -> languages
    exact: dict[str, list[str]] = {}
    exact_langs: dict[str, list[str]] = {}
    games: dict[str, list[str]] = {}
    langs: dict[str, list[str]] = {}
    overlays: dict[str, list[str]] = {}
    for game, concepts in sorted(glossaries.items()):
        for cid, c in sorted(concepts.items()):
            games.setdefault(cid, [])
            if game not in games[cid]:
                games[cid].append(game)
            for ov in c.get("overlays") or ():
                if str(ov) not in overlays.setdefault(cid, []):
                    overlays[cid].append(str(ov))
            for lang, ws in sorted((c.get("words") or {}).items()):
                for w in ws:
                    found = glossary_key(str(w), lang)
                    if found is None:
                        continue
                    key, must_match = found
                    table = exact if must_match else phrases
                    if cid not in table.setdefault(key, []):
                        table[key].append(cid)
                    known = exact_langs if must_match else langs
                    if lang not in known.setdefault(key, []):
                        known[key].append(lang)
                    if not must_match:
                        meanings.setdefault(key, {}).setdefault(cid, set()).add(lang)
    own = {key: {lang: [c for c in phrases[key] if lang in by_cid[c]] for lang in langs[key]}
           for key, by_cid in meanings.items() if len({frozenset(ls) for ls in by_cid.values()}) > 1}
    longest = max((len(k.split()) for k in phrases), default=1)
    return {"phrases": phrases, "exact": exact, "exact_langs": exact_langs, "games": games, "langs": langs,
            "own": own, "longest": longest, "overlays": overlays}


def weak_keys(glossary: Mapping[str, Any], texts: Mapping[str, list[tuple[str, str]]]) -> list[str]:
    """Glossary words of one game that the other game's texts use too (``place``, ``center``):
    weak signs of which game a question is about. ``texts`` maps a game to its entries' texts,
    each with its language."""
    # one string per game: texts apart by a line break, which no needle holds
    seqs = {g: "\n".join(" " + " ".join(w if is_hangul(w) else stem(w) for w in words(t, lang)) + " "
                         for lang, t in ts)
            for g, ts in texts.items()}
    cgames = glossary["games"]
    out = []
    for key, cids in glossary["phrases"].items():
        owners = {g for c in cids for g in cgames.get(c, ())}
        if len(owners) != 1:
            continue
        needle = key if is_hangul(key) else f" {key} "
        if any(needle in s for g, s in seqs.items() if g not in owners):
            out.append(key)
    return sorted(out)


class Analysis:
    """What a text says, for ranking: its terms, the concepts found (with the words that gave
    them), the games its words belong to, and the languages of its glossary words."""

    __slots__ = ("concepts", "games", "langs", "terms")

    def __init__(self) -> None:
        self.terms: list[str] = []
        self.concepts: list[tuple[str, str]] = []  # (concept, the words that gave it)
        self.games: list[tuple[set[str], float]] = []  # per game word: its games, and how sure a sign it is
        self.langs: dict[str, float] = {}


_DICE_RUN = re.compile(r"\b([1-6])(?:\s*[-,/+x ]\s*\1){2,}\b|\b(111|222|333)\b")
_COUNT_FACE = re.compile(r"\b([3-8])\s*(?:x\s*)?(?:of\s+|de\s+|des\s+)?([1-3])(?:s|'s|er)?\b")


def _dice_terms(folded: str) -> list[tuple[str, str]]:
    """Dice notation in a text: ``1-1-1``, ``222``, ``three 2s`` (number words already digits)."""
    out: list[tuple[str, str]] = []
    for m in _DICE_RUN.finditer(folded):
        face = (m.group(1) or m.group(2)[0])
        out += [(f"{CONCEPT}number-set", m.group(0)), (f"{CONCEPT}face-{face}", m.group(0))]
    for m in _COUNT_FACE.finditer(folded):
        out += [(f"{CONCEPT}number-set", m.group(0)), (f"{CONCEPT}face-{m.group(2)}", m.group(0))]
    return out


def analyze(text: str, glossary: Mapping[str, Any], game: str | None = None, lang: str | None = None) -> Analysis:
    """Terms and concepts of ``text``, written in ``lang`` (None: not known). With ``game``, only
    that game's concepts are used (the data of one game); without, every game's (a question)."""
    a = Analysis()
    raw = [unicodedata.normalize("NFC", w.casefold()) for w in _RAW_WORD.findall(text)]
    ws = words(text, lang)
    a.terms = _tokens(ws)
    folded = " ".join(ws)
    phrases = table(glossary.get("phrases", {}))
    exact: dict[str, list[str]] = glossary.get("exact", {})
    cgames: dict[str, list[str]] = glossary.get("games", {})
    klangs = table(glossary.get("langs", {}))
    longest = int(glossary.get("longest", 1))
    weak = table(glossary.get("weak", ()))
    own: Mapping[str, dict[str, list[str]]] = glossary.get("own", {})
    if isinstance(weak, list):
        weak = set(weak)
    dice = _dice_terms(folded)
    if dice and (game is None or game in cgames.get("number-set", ())):
        # dice notation is a game word too: of the games whose glossary has a set of numbers
        _add(a, ["number-set"], dice[0][1], cgames, game)
        a.concepts.extend(d for d in dice if d[0] != CONCEPT + "number-set")
    forms = [korean_forms(w) if is_hangul(w) else [stem(w)] for w in ws]
    common = COMMON_WORDS.get(lang or "", frozenset())
    rawset = set(raw)
    covered = [False] * len(ws)
    starts = _phrase_starts(phrases) if isinstance(phrases, dict) else None
    i = 0
    while i < len(ws):
        matched = 0
        most = min(longest, len(ws) - i)
        if starts is not None and not any(f in starts for f in forms[i]):
            most = 1  # no phrase of several words begins with this one
        for n in range(most, 0, -1):
            keys = _keys(forms[i:i + n])
            for key in keys:
                cids = listed(phrases.get(key))
                if not cids or (n == 1 and ws[i] in STOPWORDS):
                    continue
                langs = listed(klangs.get(key))
                if common and lang not in langs and any(w in common for w in ws[i:i + n]):
                    continue  # another language's word, here a common word of the text's: "a 3" in English
                if lang in langs and key in own:  # the meaning in the text's language: French "roi" is a king
                    cids = own[key][lang]
                _add(a, cids, " ".join(ws[i:i + n]), cgames, game, WEAK_SIGN if key in weak else 1.0)
                for kl in langs:
                    a.langs[kl] = a.langs.get(kl, 0.0) + 1.0 / len(langs)
                matched = n
                break
            if matched:
                break
        for k in range(i, i + matched):
            covered[k] = True
        i += matched or 1
    if lang in (None, "de"):  # German writes compounds as one word
        for k, w in enumerate(ws):
            if not covered[k] and len(w) >= 7 and w.isalpha() and not is_hangul(w) and w not in STOPWORDS:
                for part in _compound_parts(w, phrases, klangs):
                    _add(a, listed(phrases.get(part)), w, cgames, game)
    exact_langs: Mapping[str, list[str]] = glossary.get("exact_langs", {})
    for key, cids in exact.items():
        if key in rawset and not (common and lang not in exact_langs.get(key, (lang,)) and fold(key) in common):
            _add(a, cids, key, cgames, game)
    return a


def _compound_parts(word: str, phrases: Any, klangs: Any) -> list[str]:
    """German glossary words that begin or end a longer word: ``zusatzwürfel`` -> ``würfel``,
    ``herzsymbol`` -> ``herz`` (German writes compounds as one word; an English word inside one,
    ``angreif-ende``, is no part)."""
    parts = []
    for i in range(len(word) - 3, 3, -1):
        if word[:i] in phrases and "de" in listed(klangs.get(word[:i])):
            parts.append(word[:i])
            break
    for i in range(3, len(word) - 3):
        tail = stem(word[i:])
        if tail in phrases and "de" in listed(klangs.get(tail)):
            parts.append(tail)
            break
    return parts


_STARTS: list[tuple[dict[str, Any], frozenset[str]]] = []


def _phrase_starts(phrases: dict[str, Any]) -> frozenset[str]:
    """The first words of a glossary's phrases of several words (kept for the last glossary seen)."""
    if not _STARTS or _STARTS[0][0] is not phrases:
        _STARTS[:] = [(phrases, frozenset(k.split(" ", 1)[0] for k in phrases if " " in k))]
    return _STARTS[0][1]


def _keys(forms: list[list[str]]) -> list[str]:
    if all(len(fs) == 1 for fs in forms):  # most words have one form
        return [" ".join(fs[0] for fs in forms).strip()]
    keys = [""]
    for fs in forms:
        keys = [f"{k} {f}".strip() for k in keys for f in fs][:32]
    return keys


def _add(a: Analysis, cids: list[str], src: str, cgames: Mapping[str, list[str]], game: str | None,
         sign: float = 1.0) -> None:
    games: set[str] = set()
    for cid in cids:
        owners = cgames.get(cid, [])
        if game is not None and game not in owners:
            continue
        games.update(owners)
        a.concepts.append((CONCEPT + cid, src))
    if games:
        a.games.append((games, sign))


# --------------------------------------------------------------------------- languages


def detect_language(text: str, glossary_langs: Mapping[str, float] | None = None) -> tuple[str, bool]:
    """The language a question is written in, and whether the guess is sure. Hangul is Korean (with
    the English names of a game's pieces in it too). Otherwise each word votes: a stopword, number word or
    typical word of some languages (as written, else without its accents: ``co hoi mau`` is
    Vietnamese), its letters (Vietnamese ``ơ``, ``ạ``, ``ầ``... strongly; ``ß``, ``ñ``, ``ç``
    less; ``â``, ``é``, shared by several, little), and the languages of its glossary words
    (``glossary_langs``)."""
    low = unicodedata.normalize("NFC", text.lower())  # not casefold(): ß stays
    if any("\uac00" <= c <= "\ud7a3" for c in low):
        return "ko", True
    score = dict.fromkeys(("en", "fr", "de", "es", "vi"), 0.0)
    unmarked = low.isascii()  # maybe all its accents left out: "the" may be Vietnamese "thế"
    for w in _RAW_WORD.findall(low):
        langs = _LANG_WORDS.get(w, ())
        if unmarked or not langs:
            langs = tuple(sorted({*langs, *_LANG_WORDS_FOLDED.get(fold(w), ())}))
        for lang in langs:
            score[lang] += 1.0 / len(langs)
        if not w.isascii():
            allowed, sign = _letters_sign(w)
            for lang in allowed:
                score[lang] += sign
    if "¿" in low or "¡" in low:
        score["es"] += LETTER
    if _ELISION.search(low):
        score["fr"] += LETTER
    for lang, v in (glossary_langs or {}).items():
        if lang in score:
            score[lang] += 0.5 * v
    best = max(score, key=lambda k: score[k])
    ranked = sorted(score.values(), reverse=True)
    if ranked[0] == 0:
        return "en", False
    return best, ranked[0] >= 1 and ranked[0] >= 1.5 * ranked[1]


def _letters_sign(word: str) -> tuple[tuple[str, ...], float]:
    """The languages a word's letters allow, and how much each gets."""
    if any(c in _OWN_LETTERS["vi"] for c in word):
        return ("vi",), STRONG_LETTER
    allowed: set[str] | None = None
    for c in word:
        langs = _LETTER_LANGS.get(c)
        if langs is not None:
            allowed = set(langs) if allowed is None else allowed & set(langs)
    if not allowed:
        return (), 0.0
    return tuple(sorted(allowed)), LETTER if len(allowed) == 1 else SHARED_LETTER / len(allowed)


def analyze_question(text: str, glossary: Mapping[str, Any]) -> tuple[Analysis, str]:
    """A question's analysis and its language (``en`` when unsure). The language comes from the
    analysis (its glossary words), and decides which number words are digits, which words are
    common words of the language rather than another language's game words, and whether German
    compounds are split: the analysis is redone in the language found."""
    a = analyze(text, glossary)
    lang, sure = detect_language(text, a.langs)
    lang = lang if sure else "en"
    if sure or words(text, lang) != words(text):
        a = analyze(text, glossary, lang=lang)
    return a, lang


def _lang_words() -> tuple[dict[str, tuple[str, ...]], dict[str, tuple[str, ...]]]:
    """The languages each word of the lists belongs to: as written, and folded (words written with
    accents only). Vietnamese number words are left out: folded, they are English and French words."""
    written: dict[str, set[str]] = {}
    for lang in ("en", "fr", "de", "es", "vi"):
        listed = [*_STOP[lang].split(), *_TYPICAL[lang].split(), *(_number_words(lang) if lang != "vi" else ())]
        for item in listed:
            for w in _RAW_WORD.findall(unicodedata.normalize("NFC", item.lower())):
                written.setdefault(w, set()).add(lang)
    folded: dict[str, set[str]] = {}
    for w, langs in written.items():
        if not w.isascii():
            folded.setdefault(fold(w), set()).update(langs)
    return ({w: tuple(sorted(ls)) for w, ls in written.items()}, {w: tuple(sorted(ls)) for w, ls in folded.items()})


_LANG_WORDS, _LANG_WORDS_FOLDED = _lang_words()
_LETTER_LANGS: dict[str, tuple[str, ...]] = {c: langs for cs, langs in _SHARED_LETTERS.items() for c in cs}
_LETTER_LANGS.update({c: (lang,) for lang, cs in _OWN_LETTERS.items() if lang != "vi" for c in cs})
_ELISION = re.compile(r"\b(?:qu|l|d|j|n|s|c)['’]\w")


def unsupported_script(text: str) -> bool:
    """True when ``text`` has letters but none in a script kbg reads (Latin or Hangul)."""
    letters = [c for c in text if c.isalpha()]
    if not letters:
        return False
    return not any(c.isascii() or "\u00c0" <= c <= "\u024f" or "\u1e00" <= c <= "\u1eff"
                   or "\uac00" <= c <= "\ud7a3" or "\u1100" <= c <= "\u11ff" or "\u3130" <= c <= "\u318f"
                   for c in letters)


def _iter_pairs(items: Iterable[str]) -> Iterable[tuple[str, str]]:
    it = iter(items)
    prev = next(it, None)
    for cur in it:
        if prev is not None:
            yield prev, cur
        prev = cur
