"""Writing a report: ``report.md`` beside its PNG figures, and ``report.html`` with the same
content and the figures embedded (one self-contained file to attach or open anywhere)."""

from __future__ import annotations

import base64
import html
from collections.abc import Sequence
from pathlib import Path

from clinical_envs.report.document import Figure, Section, Table, Text

CSS = """
body { font: 15px/1.45 system-ui, sans-serif; max-width: 1100px; margin: 2em auto; padding: 0 1em;
       color: #111; }
table { border-collapse: collapse; margin: 0.6em 0 0.3em; font-size: 13px; }
th, td { border: 1px solid #999; padding: 3px 7px; text-align: left; vertical-align: top; }
th { background: #eee; }
p.note, figcaption { color: #444; font-size: 13px; }
img { max-width: 100%; border: 1px solid #ddd; }
"""


def _md_cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def markdown(title: str, sources: Sequence[str], sections: Sequence[Section]) -> str:
    lines = [f"# {title}", "", "Runs:", ""]
    lines += [f"- `{s}`" for s in sources]
    for section in sections:
        lines += ["", f"## {section.title}"]
        for block in section.blocks:
            lines.append("")
            if isinstance(block, Text):
                lines.append(block.text)
            elif isinstance(block, Table):
                lines += [f"### {block.title}", ""]
                lines.append("| " + " | ".join(map(_md_cell, block.columns)) + " |")
                lines.append("|" + " --- |" * len(block.columns))
                lines += ["| " + " | ".join(map(_md_cell, row)) + " |" for row in block.rows]
                if block.note:
                    lines += ["", block.note]
            elif isinstance(block, Figure):
                lines += [f"### {block.title}", "", f"![{block.title}]({block.filename})"]
                if block.caption:
                    lines += ["", block.caption]
    return "\n".join(lines) + "\n"


def html_page(title: str, sources: Sequence[str], sections: Sequence[Section]) -> str:
    e = html.escape
    out = [
        "<!doctype html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{e(title)}</title><style>{CSS}</style></head><body>",
        f"<h1>{e(title)}</h1><p>Runs:</p><ul>",
    ]
    out += [f"<li><code>{e(s)}</code></li>" for s in sources]
    out.append("</ul>")
    for section in sections:
        out.append(f"<h2>{e(section.title)}</h2>")
        for block in section.blocks:
            if isinstance(block, Text):
                out.append(f"<p>{e(block.text)}</p>")
            elif isinstance(block, Table):
                out.append(f"<h3>{e(block.title)}</h3><table><thead><tr>")
                out += [f"<th>{e(c)}</th>" for c in block.columns]
                out.append("</tr></thead><tbody>")
                for row in block.rows:
                    out.append("<tr>" + "".join(f"<td>{e(c)}</td>" for c in row) + "</tr>")
                out.append("</tbody></table>")
                if block.note:
                    out.append(f'<p class="note">{e(block.note)}</p>')
            elif isinstance(block, Figure):
                data = base64.b64encode(block.png).decode("ascii")
                out.append(
                    f"<h3>{e(block.title)}</h3><figure>"
                    f'<img alt="{e(block.title)}" src="data:image/png;base64,{data}">'
                    f"<figcaption>{e(block.caption)}</figcaption></figure>"
                )
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def write(
    out_dir: Path, title: str, sources: Sequence[str], sections: Sequence[Section]
) -> list[Path]:
    """Write report.md, report.html and every figure; return the paths written."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    used: set[str] = set()
    for section in sections:
        for i, block in enumerate(section.blocks):
            if isinstance(block, Figure):
                name = _unique(block.filename, used)
                section.blocks[i] = Figure(block.title, name, block.png, block.caption)
                (out_dir / name).write_bytes(block.png)
                written.append(out_dir / name)
    for name, text in (
        ("report.md", markdown(title, sources, sections)),
        ("report.html", html_page(title, sources, sections)),
    ):
        (out_dir / name).write_text(text, encoding="utf-8")
        written.append(out_dir / name)
    return written


def _unique(name: str, used: set[str]) -> str:
    """Several runs each draw e.g. capitulation_curve.png: number the later ones."""
    stem, _, suffix = name.rpartition(".")
    candidate, n = name, 1
    while candidate in used:
        n += 1
        candidate = f"{stem}-{n}.{suffix}"
    used.add(candidate)
    return candidate


def summary_table(sections: Sequence[Section]) -> str:
    """The console summary: each section's headline figures, one per line."""
    lines = []
    for section in sections:
        if not section.summary:
            continue
        lines.append(section.title)
        width = max(len(label) for label, _ in section.summary)
        lines += [f"  {label:<{width}}  {value}" for label, value in section.summary]
    return "\n".join(lines)
