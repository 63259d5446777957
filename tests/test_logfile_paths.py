"""The log reader's short paths give what the general ones give: the search of a whole text for odd
blanks and long numbers, a header's values tokenized without their tag."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from kbgrules.core.logfile import _DIGIT_RUN, _ODD_BLANK, MAX_DIGITS, _oddities, iter_games, tokens


def _general(text: str) -> tuple[bool, bool]:
    return _ODD_BLANK(text) is not None, _DIGIT_RUN(text) is not None


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="0123456789 \t\nabc:\x0b\x1f\u00a0", max_size=300))
def test_oddities_are_the_regexes_answers(text: str) -> None:
    assert _oddities(text) == _general(text)


def test_a_long_number_is_found_at_every_offset() -> None:
    for length in (MAX_DIGITS - 1, MAX_DIGITS, MAX_DIGITS + 1, MAX_DIGITS + 2, 3 * MAX_DIGITS):
        for offset in range(12):
            for filler in ("x", "1 ", "12 "):
                text = (filler * 20)[:offset] + "7" * length + " roll 1 2 3\n" + filler * 7
                assert _oddities(text) == _general(text), (length, offset, filler)
                assert _oddities(text + "\u00e9") == _general(text + "\u00e9")


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(alphabet="ab1@ \t\x0c", min_size=1, max_size=6), min_size=1, max_size=5),
       st.sampled_from([" ", "\t", "  ", " \t "]))
def test_header_values_are_the_tokens_of_the_line_after_the_tag(values: list[str], blank: str) -> None:
    line = "@note" + blank + blank.join(values)
    (g, _), = [x for x in iter_games("a.log", line + "\n@game kingdomino\n@players A B\n") if x[0] is not None]
    want = tokens(line.rstrip())[1:]  # as the reader sees the line
    notes = [h for h in g.headers if h.name == "note"]
    assert (notes[0].values if notes else []) == want


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="ab1 \t\x0b\u00a0", min_size=1, max_size=30).map(str.strip).filter(bool))
def test_events_made_by_this_code_as_by_the_reader(text: str) -> None:
    """Made here (interpreted code, in the compiled build too) or by the reader, an event holds its line,
    tokens and words: the class called with tokens, with a text, and ``from_text``."""
    from kbgrules.core.logfile import Event, Token, split_games

    given_tokens = Event(3, [Token("a", 1), Token("b", 4)])
    assert (given_tokens.line, given_tokens.words, given_tokens.block, given_tokens.col) == (3, ["a", "b"], [], 1)
    assert given_tokens.tokens == [Token("a", 1), Token("b", 4)] and given_tokens == Event(3, tokens("a  b"), [])
    assert Event(1, [Token("a", 1)], [(2, " x")]).block == [(2, " x")]
    match Event(5, [Token("a", 2)]):
        case Event(line, [Token(text="a")], []):
            assert line == 5
        case _:
            raise AssertionError("no match")
    games, _ = split_games("a.log", f"@game g\n@players a b\n{text}\n{text}\n")
    first, second = games[0].events
    assert first.words == second.words and first.tokens == second.tokens == tokens(text)
    for ev in (Event.from_text(3, text), Event.from_text(3, text, "\x0b" in text or "\u00a0" in text),
               Event(3, None, None, text, first.words)):
        assert (ev.line, ev.words, ev.tokens, ev.block) == (3, first.words, tokens(text), [])
        assert ev == Event(3, tokens(text)) and ev.col == tokens(text)[0].col
    if not any(c in text for c in "\x0b\u00a0"):
        assert Event(3, None, None, text).words == text.split()
