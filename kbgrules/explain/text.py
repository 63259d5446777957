"""Words for ``kbg explain``: a text's terms, the same steps for a player's question and for the rule data,
and the language a question is written in.

A text becomes *terms*: lower-case, accent-free words, lightly stemmed (``yielding`` -> ``yield``),
with number words as digits; Korean words also give their syllable pairs. Game words become glossary
concepts in :mod:`kbgrules.explain.concepts`.

Stopwords and number words are language facts, not rules, so they live here rather than in
``rules_data``.
"""

from __future__ import annotations

import re
import unicodedata

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

LANGS = ("en", "ko", "fr", "vi", "de", "es")
LANG_NAMES = {"en": "English", "ko": "Korean", "fr": "French", "vi": "Vietnamese", "de": "German", "es": "Spanish"}

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


def raw_words(text: str) -> list[str]:
    """The words of ``text`` as written, in lower case (accents kept: French ``dés`` is not ``des``)."""
    return [unicodedata.normalize("NFC", w.casefold()) for w in _RAW_WORD.findall(text)]


def phrase(text: str) -> str:
    return " ".join(_WORD.findall(fold(text)))


def tokens(text: str, lang: str | None = None) -> list[str]:
    """Plain word terms (no concepts): stems of the words that are not stopwords, and Korean
    syllable pairs."""
    return word_tokens(words(text, lang))


def word_tokens(ws: list[str]) -> list[str]:
    """:func:`tokens` of words already read (by :func:`words`)."""
    out: list[str] = []
    for w in ws:
        if is_hangul(w):
            out.extend([w] if len(w) == 1 else [w[i:i + 2] for i in range(len(w) - 1)])
        elif w not in STOPWORDS:
            out.append(stem(w))
    return out


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
