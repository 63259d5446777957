"""The fixed wording of ``kbg explain``'s answers (headings, labels, notes) in its six languages.

A Python table beside the command, not rule data: these words are the command's, not a game's, and a
module is read as compiled bytecode, with nothing to parse on each question. A string missing in a
language is shown in English whole (:func:`say`), never half translated.
"""

from __future__ import annotations

from kbgrules.explain.text import LANG_NAMES

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

# key -> language -> text; ``{name}`` fields are filled by ``say``. English is complete: the fallback.
STRINGS: dict[str, dict[str, str]] = {
    "clarification": {
        "en": "Clarification: ", "ko": "보충 설명: ", "fr": "Précision : ", "vi": "Làm rõ: ",
        "de": "Klarstellung: ", "es": "Aclaración: ",
    },
    "conflict": {
        "en": "Where sources differ: ", "ko": "출처마다 다른 점: ", "fr": "Là où les sources divergent : ",
        "vi": "Chỗ các nguồn nói khác nhau: ", "de": "Wo die Quellen abweichen: ", "es": "Donde las fuentes difieren: ",
    },
    "only-editions": {
        "en": "Only in the {editions} edition.", "ko": "{editions} 에디션에만 있는 내용입니다.",
        "fr": "Uniquement dans l'édition {editions}.", "vi": "Chỉ có trong phiên bản {editions}.",
        "de": "Nur in der Edition {editions}.", "es": "Solo en la edición {editions}.",
    },
    "with-variant": {
        "en": "Applies with the variant {variant}.", "ko": "{variant} 변형 규칙으로 할 때 적용됩니다.",
        "fr": "S'applique avec la variante {variant}.", "vi": "Áp dụng khi chơi biến thể {variant}.",
        "de": "Gilt mit der Variante {variant}.", "es": "Se aplica con la variante {variant}.",
    },
    "applies": {"en": "Applies {note}."},  # a note of another form (user data): English only
    "edition-reading": {
        "en": "The {edition} edition's reading (the default edition differs).",
        "ko": "{edition} 에디션의 규칙입니다(기본 에디션과 다릅니다).",
        "fr": "Ce que dit l'édition {edition} (l'édition par défaut diffère).",
        "vi": "Cách hiểu của phiên bản {edition} (phiên bản mặc định khác).",
        "de": "So gilt es in der Edition {edition} (die Standardedition weicht ab).",
        "es": "Lo que dice la edición {edition} (la edición por defecto es distinta).",
    },
    "edition-differs": {
        "en": "Differs in the {editions} edition: kbg explain {id} --edition {first}",
        "ko": "{editions} 에디션에서는 다릅니다: kbg explain {id} --edition {first}",
        "fr": "Diffère dans l'édition {editions} : kbg explain {id} --edition {first}",
        "vi": "Khác trong phiên bản {editions}: kbg explain {id} --edition {first}",
        "de": "Anders in der Edition {editions}: kbg explain {id} --edition {first}",
        "es": "Cambia en la edición {editions}: kbg explain {id} --edition {first}",
    },
    "no-text": {
        "en": "No {language} text for this entry yet; here it is in English.",
        "ko": "이 항목은 아직 한국어 글이 없어 영어로 보여 드립니다.",
        "fr": "Pas encore de texte en français pour cette entrée ; la voici en anglais.",
        "vi": "Mục này chưa có bản tiếng Việt; dưới đây là bản tiếng Anh.",
        "de": "Für diesen Eintrag gibt es noch keinen deutschen Text; hier ist er auf Englisch.",
        "es": "Esta entrada aún no tiene texto en español; aquí está en inglés.",
    },
    "sources": {"en": "Sources:", "ko": "출처:", "fr": "Sources :", "vi": "Nguồn:", "de": "Quellen:", "es": "Fuentes:"},
    "read-next": {
        "en": "Read next:", "ko": "이어서 읽기:", "fr": "À lire ensuite :", "vi": "Đọc tiếp:", "de": "Weiterlesen:",
        "es": "Para seguir leyendo:",
    },
    "also-close": {
        "en": "Also close:", "ko": "비슷한 항목:", "fr": "Également proches :", "vi": "Cũng gần:",
        "de": "Ebenfalls passend:", "es": "También cercanos:",
    },
    "both-games": {
        "en": "This question fits both games. In {game}: {id}  {title}",
        "ko": "이 질문은 두 게임 모두에 해당합니다. {game}에서는: {id}  {title}",
        "fr": "Cette question concerne les deux jeux. Dans {game} : {id}  {title}",
        "vi": "Câu hỏi này hợp với cả hai trò chơi. Trong {game}: {id}  {title}",
        "de": "Diese Frage passt zu beiden Spielen. In {game}: {id}  {title}",
        "es": "Esta pregunta sirve para los dos juegos. En {game}: {id}  {title}",
    },
    "not-sure": {
        "en": "kbg is not sure which rule {query} is about. The closest three:",
        "ko": "{query}: kbg는 어느 규칙에 관한 질문인지 확실히 알 수 없습니다. 가장 가까운 세 항목:",
        "fr": "kbg ne sait pas bien de quelle règle parle {query}. Les trois plus proches :",
        "vi": "kbg không chắc {query} hỏi về luật nào. Ba mục gần nhất:",
        "de": "kbg ist nicht sicher, um welche Regel es bei {query} geht. Die drei nächsten:",
        "es": "kbg no está seguro de a qué regla se refiere {query}. Las tres más cercanas:",
    },
    "nothing": {
        "en": "Nothing in kbg's rules answers {query} well. Nearest topics:",
        "ko": "{query}: kbg의 규칙에는 여기에 잘 맞는 답이 없습니다. 가장 가까운 주제:",
        "fr": "Rien dans les règles de kbg ne répond bien à {query}. Sujets les plus proches :",
        "vi": "Luật của kbg không có gì trả lời tốt {query}. Các chủ đề gần nhất:",
        "de": "Nichts in den Regeln von kbg beantwortet {query} gut. Nächste Themen:",
        "es": "Nada en las reglas de kbg responde bien a {query}. Temas más cercanos:",
    },
    "none": {"en": "(none)", "ko": "(없음)", "fr": "(aucun)", "vi": "(không có)", "de": "(keine)", "es": "(ninguno)"},
    "read-one": {
        "en": "Read one with: kbg explain ID   List every topic with: kbg explain",
        "ko": "하나 읽기: kbg explain ID   모든 주제 보기: kbg explain",
        "fr": "Pour en lire un : kbg explain ID   Pour lister tous les sujets : kbg explain",
        "vi": "Đọc một mục: kbg explain ID   Xem mọi chủ đề: kbg explain",
        "de": "Eines lesen: kbg explain ID   Alle Themen auflisten: kbg explain",
        "es": "Para leer uno: kbg explain ID   Para ver todos los temas: kbg explain",
    },
}


def say(key: str, lang: str, **fields: str) -> str:
    """The string ``key`` in ``lang``, or whole in English where ``lang`` has none, with ``fields`` filled."""
    texts = STRINGS[key]
    return texts.get(lang, texts["en"]).format(language=LANG_NAMES.get(lang, lang), **fields)


def game_name(games: Mapping[str, Mapping[str, Any]], game: str, lang: str) -> str:
    """A game's name as written in ``lang`` (``games``: :func:`kbgrules.explain.games`; its own name where
    the rule data gives no other)."""
    info = games.get(game) or {}
    return str((info.get("names") or {}).get(lang) or info.get("name") or game)


def title(entry: dict[str, object], lang: str) -> str:
    """An entry's title in ``lang`` where the rule data gives one (``title_translations``), else its own."""
    titles = entry.get("title_translations")
    found = titles.get(lang) if isinstance(titles, dict) else None
    return found if isinstance(found, str) and found else str(entry["title"])
