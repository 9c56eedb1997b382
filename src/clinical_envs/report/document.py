"""What a report is made of: sections of text, tables and figures, rendered by :mod:`.render`."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Table:
    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    note: str = ""


@dataclass(frozen=True)
class Figure:
    title: str
    filename: str
    """The PNG's name in the output folder."""
    png: bytes
    caption: str = ""


@dataclass(frozen=True)
class Text:
    text: str


Block = Table | Figure | Text


@dataclass
class Section:
    title: str
    blocks: list[Block] = field(default_factory=list)
    summary: list[tuple[str, str]] = field(default_factory=list)
    """Headline (label, value) pairs, printed on the console as well."""

    def add(self, *blocks: Block) -> None:
        self.blocks.extend(blocks)

    def table(
        self, title: str, columns: tuple[str, ...], rows: list[tuple[str, ...]], note: str = ""
    ) -> None:
        self.blocks.append(Table(title, columns, tuple(rows), note))

    def text(self, text: str) -> None:
        self.blocks.append(Text(text))


def pct(value: float) -> str:
    return "n/a" if value != value else f"{value:.3f}"
