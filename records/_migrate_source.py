"""
A module's source as ``python -m records migrate`` shows it: the text of a
node as written, its own parentheses, comments and line breaks included,
from the positions ``ast`` gives (lines, and columns in UTF-8 bytes).
"""

from __future__ import annotations

import ast
import bisect
import io
import re
import tokenize


def decode(source: bytes) -> str:
    """Decode a module's source as its BOM or coding line says (UTF-8 otherwise)."""
    return source.decode(encoding(source))


def encoding(source: bytes) -> str:
    """Return the encoding of a module's source, as its BOM or coding line says."""
    return tokenize.detect_encoding(io.BytesIO(source).readline)[0]


def position(node: ast.AST) -> tuple[int, int, int, int]:
    """Sort key of nodes in source order, the outer first where two start together."""
    return (
        node.lineno,  # type: ignore[attr-defined]
        node.col_offset,  # type: ignore[attr-defined]
        -(node.end_lineno or 0),  # type: ignore[attr-defined]
        -(node.end_col_offset or 0),  # type: ignore[attr-defined]
    )


class SourceText:
    """A module's text, to show its nodes as they are written."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.lines = _lines(text)
        self.starts = [0]
        for line in self.lines:
            self.starts.append(self.starts[-1] + len(line))
        self._tokens: list[tuple[str, int]] | None = None

    def offset(self, line: int, column: int) -> int:
        """Return the offset in the text of *column* (UTF-8 bytes, as ``ast`` counts) of *line*."""
        text = self.lines[line - 1] if line <= len(self.lines) else ""
        if not text.isascii():
            column = len(text.encode()[:column].decode(errors="replace"))
        return self.starts[line - 1] + column

    def span(self, node: ast.AST) -> tuple[int, int]:
        start = self.offset(node.lineno, node.col_offset)  # type: ignore[attr-defined]
        end = self.offset(node.end_lineno, node.end_col_offset)  # type: ignore[attr-defined]
        return start, end

    def before(self, node: ast.AST) -> str:
        """Return the text of *node*'s line before it."""
        start = self.offset(node.lineno, node.col_offset)  # type: ignore[attr-defined]
        return self.text[self.starts[node.lineno - 1] : start]  # type: ignore[attr-defined]

    def source(self, node: ast.AST, parent: ast.AST | None) -> str:
        """Return the source of *node*, with the parentheses that are its own."""
        start, end = self.span(node)
        start, end = self._parenthesized(start, end, _parent_parentheses(node, parent))
        return self.text[start:end]

    def _parenthesized(self, start: int, end: int, theirs: int) -> tuple[int, int]:
        """
        Return the span from *start* to *end* widened by the parentheses
        around it, but for the innermost *theirs* (a parent's). Where only
        spaces lie between them on one line, the text says; otherwise the
        tokens do (a comment may hold a parenthesis).
        """
        before = re.search(r"[(\s]*\Z", self.text[max(0, start - 200) : start])
        after = re.match(r"[)\s]*", self.text[end : end + 200])
        assert before is not None and after is not None
        opened, closed = before[0].count("("), after[0].count(")")
        follows = self.text[end + after.end() : end + after.end() + 1]
        before_known = (
            "\n" not in before[0]
            and "\r" not in before[0]
            and (before.start() > 0 or start <= 200)
        )
        after_known = "\n" not in after[0] and "\r" not in after[0] and follows not in ("#", "\\")
        if (before_known and opened <= theirs) or (after_known and closed <= theirs):
            return start, end
        if before_known and after_known:
            count = min(opened, closed) - theirs
            for _ in range(count):
                start = self.text.rindex("(", 0, start)
                end = self.text.index(")", end) + 1
            return start, end
        return self._token_parenthesized(start, end, theirs)

    def _token_parenthesized(self, start: int, end: int, theirs: int) -> tuple[int, int]:
        tokens = self._tokenized()
        offsets = [offset for _, offset in tokens]
        first, last = bisect.bisect_left(offsets, start), bisect.bisect_left(offsets, end)
        count = 0
        while (
            first - 1 - count >= 0
            and last + count < len(tokens)
            and tokens[first - 1 - count][0] == "("
            and tokens[last + count][0] == ")"
        ):
            count += 1
        count -= theirs
        if count <= 0:
            return start, end
        return tokens[first - count][1], tokens[last + count - 1][1] + 1

    def _tokenized(self) -> list[tuple[str, int]]:
        if self._tokens is None:
            self._tokens = []
            skipped = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT}
            skipped.add(tokenize.DEDENT)
            try:
                for token in tokenize.generate_tokens(io.StringIO(self.text, newline="").readline):
                    if token.type not in skipped:
                        row, column = token.start
                        self._tokens.append((token.string, self.starts[row - 1] + column))
            except (tokenize.TokenError, SyntaxError):
                pass  # what was read is enough, or parentheses are not counted
        return self._tokens


def _lines(text: str) -> list[str]:
    """Split *text* into lines as Python's tokenizer does (at LF, CRLF and CR)."""
    return re.findall(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z", text)


def _parent_parentheses(node: ast.AST, parent: ast.AST | None) -> int:
    """Return 1 where the syntax of *parent* puts *node*, its sole argument, in parentheses."""
    if isinstance(parent, ast.Call):
        sole = len(parent.args) + len(parent.keywords) == 1
        return int(sole and bool(parent.args) and parent.args[0] is node)
    if isinstance(parent, ast.ClassDef):
        sole = len(parent.bases) + len(parent.keywords) == 1
        return int(sole and bool(parent.bases) and parent.bases[0] is node)
    return 0
