#!/usr/bin/env python3
"""Draws the walkthrough's Mermaid blocks as SVG images for the DocC site (GitHub draws Mermaid itself; DocC does not).

The blocks are the ones `sdport diagram` writes from real runs (Docs/diagrams, chapter 11), so only the part of
Mermaid they use is understood, and anything else is an error rather than a wrong picture:
- `sequenceDiagram`: `participant ID as LABEL`, `Note over ID: TEXT`, `A->>B: TEXT` (a step) and `A-->>B: TEXT` (a
  mark, dashed). Drawn here: one lane per participant, one row per arrow, in the block's order.
- `flowchart TB|LR` and `stateDiagram-v2`: nodes, `-->`, `-.->`, `-->|"LABEL"|` and `X --> Y: LABEL`. Laid out by
  Graphviz's `dot` (Debian's `graphviz`; scripts/docs-site.sh installs it), from a DOT text made here.

Usage: `python3 scripts/docc_mermaid.py FILE.md…` writes FILE-N.svg beside each input for its N-th block (a preview);
scripts/docc-articles.py imports `render`.
"""
import html
import re
import subprocess
import sys

FONT = 'DejaVu Sans, Helvetica, Arial, sans-serif'
CHAR_W = 7.2  # average advance of the 13 px sans font, wide enough for labels not to overrun
INK, MUTED, LANE_FILL, NOTE_FILL = '#1d1d1f', '#6e6e73', '#eef3fb', '#fff8dc'


class MermaidError(ValueError):
    pass


def render(lines):
    """The SVG text for one Mermaid block (its lines without the fences)."""
    body = [line.strip() for line in lines if line.strip()]
    if not body:
        raise MermaidError('empty mermaid block')
    kind = body[0].split()[0]
    if kind == 'sequenceDiagram':
        return sequence_svg(body[1:])
    if kind == 'flowchart':
        direction = body[0].split()[1] if len(body[0].split()) > 1 else 'TB'
        return dot_svg(flowchart_dot(body[1:], direction))
    if kind == 'stateDiagram-v2':
        return dot_svg(state_dot(body[1:]))
    raise MermaidError(f'unsupported mermaid diagram "{body[0]}"')


# MARK: Sequence diagrams, drawn here

PARTICIPANT = re.compile(r'^participant (\w+) as (.+)$')
NOTE = re.compile(r'^Note over (\w+): (.+)$')
MESSAGE = re.compile(r'^(\w+)(-->>|->>)(\w+): (.+)$')


def text_width(text):
    return len(text) * CHAR_W


def note_box(lane_x, text):
    """A note's left edge and width: centred on its lane, unless that would cross the picture's left edge."""
    w = text_width(text) + 16
    return max(8.0, lane_x - w / 2), w


def sequence_svg(lines):
    lanes, rows = [], []
    for line in lines:
        if m := PARTICIPANT.match(line):
            lanes.append((m.group(1), m.group(2)))
        elif m := NOTE.match(line):
            rows.append(('note', m.group(1), m.group(1), m.group(2)))
        elif m := MESSAGE.match(line):
            rows.append(('dashed' if m.group(2) == '-->>' else 'solid', m.group(1), m.group(3), m.group(4)))
        else:
            raise MermaidError(f'sequence diagram: cannot read "{line}"')
    index = {lane: n for n, (lane, _) in enumerate(lanes)}
    for _, source, target, _ in rows:
        for lane in (source, target):
            if lane not in index:
                raise MermaidError(f'sequence diagram: "{lane}" is not a participant')

    # Each gap between neighbouring lanes is wide enough for the longest label of an arrow across it; a self
    # arrow's label sits right of its lane, so it widens the gap after that lane.
    gaps = [150.0] * max(0, len(lanes) - 1)
    trailing = 40.0
    for kind, source, target, text in rows:
        a, b = sorted((index[source], index[target]))
        need = text_width(text) + 24
        if a == b:  # a note (half of it right of its lane) or a self arrow (its label right of the loop)
            need = text_width(text) / 2 + 24 if kind == 'note' else need + 30
            if a < len(gaps):
                gaps[a] = max(gaps[a], need)
            else:
                trailing = max(trailing, need)
        else:
            per_gap = need / (b - a)
            for g in range(a, b):
                gaps[g] = max(gaps[g], per_gap)
    head_w = [max(110.0, text_width(label) * 1.12 + 24) for _, label in lanes]  # the heads are bold
    for g in range(len(gaps)):
        gaps[g] = max(gaps[g], (head_w[g] + head_w[g + 1]) / 2 + 16)
    left = 20 + head_w[0] / 2
    xs = [left]
    for g in gaps:
        xs.append(xs[-1] + g)
    width = xs[-1] + max(head_w[-1] / 2, trailing) + 20
    for kind, source, _, text in rows:
        if kind == 'note':
            x, w = note_box(xs[index[source]], text)
            width = max(width, x + w + 12)

    head_h, row_h, top = 34, 34, 16
    height = top + head_h + 16 + len(rows) * row_h + 16 + head_h + 16
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
           f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="{FONT}" font-size="13">',
           '<defs><marker id="head" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="8" markerHeight="8" '
           f'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="{INK}"/></marker></defs>',
           '<rect width="100%" height="100%" fill="#ffffff"/>']
    bottom = height - 16 - head_h
    for n, (lane, label) in enumerate(lanes):
        x = xs[n]
        out.append(f'<line x1="{x:.1f}" y1="{top + head_h}" x2="{x:.1f}" y2="{bottom}" stroke="{MUTED}" '
                   'stroke-dasharray="2,3"/>')
        for y in (top, bottom):
            out.append(f'<rect x="{x - head_w[n] / 2:.1f}" y="{y}" width="{head_w[n]:.1f}" height="{head_h}" rx="5" '
                       f'fill="{LANE_FILL}" stroke="{INK}"/>')
            out.append(f'<text x="{x:.1f}" y="{y + head_h / 2 + 4.5:.1f}" text-anchor="middle" font-weight="600" '
                       f'fill="{INK}">{html.escape(label)}</text>')
    y = top + head_h + 16
    for kind, source, target, text in rows:
        y += row_h
        a, b = xs[index[source]], xs[index[target]]
        label = html.escape(text)
        if kind == 'note':
            x, w = note_box(a, text)
            out.append(f'<rect x="{x:.1f}" y="{y - 24}" width="{w:.1f}" height="26" fill="{NOTE_FILL}" '
                       f'stroke="{MUTED}"/>')
            out.append(f'<text x="{x + w / 2:.1f}" y="{y - 6.5}" text-anchor="middle" fill="{INK}">{label}</text>')
            continue
        dash = ' stroke-dasharray="6,4"' if kind == 'dashed' else ''
        if source == target:
            out.append(f'<path d="M{a:.1f},{y - 14} h26 v12 h-26" fill="none" stroke="{INK}"{dash} '
                       'marker-end="url(#head)"/>')
            out.append(f'<text x="{a + 32:.1f}" y="{y - 4}" fill="{INK}">{label}</text>')
        else:
            out.append(f'<line x1="{a:.1f}" y1="{y}" x2="{b:.1f}" y2="{y}" stroke="{INK}"{dash} '
                       'marker-end="url(#head)"/>')
            out.append(f'<text x="{(a + b) / 2:.1f}" y="{y - 6}" text-anchor="middle" fill="{INK}">{label}</text>')
    out.append('</svg>')
    return '\n'.join(out) + '\n'


# MARK: Flowcharts and state diagrams, laid out by Graphviz

NODE = r'(\w+)(?:\["([^"]*)"\])?'
EDGE = re.compile(rf'^{NODE} (-->|-\.->)(?:\|"([^"]*)"\|)? {NODE}$')
LONE_NODE = re.compile(rf'^{NODE}$')
STATE_LABEL = re.compile(r'^(\w+): (.+)$')
STATE_EDGE = re.compile(r'^(\[\*\]|\w+) --> (\[\*\]|\w+)(?:: (.+))?$')


def dot_label(text):
    """Mermaid's label markup (`<br/>`, `<b>`) as a Graphviz HTML-like label, everything else escaped."""
    parts = re.split(r'(<br/>|<b>|</b>)', text)
    markup = {'<br/>': '<BR/>', '<b>': '<B>', '</b>': '</B>'}
    return '<' + ''.join(markup.get(p, html.escape(p, quote=False)) for p in parts) + '>'


def dot_header(rankdir):
    return ['digraph G {', f'  rankdir={rankdir}; bgcolor="#ffffff"; nodesep=0.3; ranksep=0.45;',
            f'  node [shape=box, style="rounded,filled", fillcolor="{LANE_FILL}", color="{INK}", '
            f'fontname="DejaVu Sans", fontsize=11, margin="0.12,0.06"];',
            f'  edge [color="{INK}", fontname="DejaVu Sans", fontsize=10, fontcolor="{INK}"];']


def flowchart_dot(lines, direction):
    if direction not in ('TB', 'TD', 'LR', 'RL', 'BT'):
        raise MermaidError(f'flowchart: unknown direction {direction}')
    dot = dot_header('TB' if direction == 'TD' else direction)
    labels = {}

    def node(name, label):
        if label is not None:
            labels[name] = label
        elif name not in labels:
            labels[name] = name

    edges = []
    for line in lines:
        if m := EDGE.match(line):
            node(m.group(1), m.group(2))
            node(m.group(5), m.group(6))
            edges.append((m.group(1), m.group(5), m.group(3) == '-.->', m.group(4)))
        elif m := LONE_NODE.match(line):
            node(m.group(1), m.group(2))
        else:
            raise MermaidError(f'flowchart: cannot read "{line}"')
    for name, label in labels.items():
        dot.append(f'  {name} [label={dot_label(label)}];')
    for source, target, dashed, label in edges:
        attributes = ['style=dashed'] if dashed else []
        if label:
            attributes.append(f'label={dot_label(label)}')
        dot.append(f'  {source} -> {target}' + (f' [{", ".join(attributes)}]' if attributes else '') + ';')
    return '\n'.join(dot + ['}']) + '\n'


def state_dot(lines):
    dot = dot_header('TB')
    dot.append('  nodesep=0.9; ranksep=0.7;')  # room for the transitions' long labels
    labels, edges = {}, []
    for line in lines:
        if m := STATE_EDGE.match(line):
            edges.append((m.group(1), m.group(2), m.group(3)))
        elif m := STATE_LABEL.match(line):
            labels[m.group(1)] = m.group(2)
        else:
            raise MermaidError(f'state diagram: cannot read "{line}"')
    dot.append(f'  start [shape=circle, style=filled, fillcolor="{INK}", label="", width=0.18];')
    dot.append(f'  end [shape=doublecircle, style=filled, fillcolor="{INK}", label="", width=0.14];')
    for name, label in labels.items():
        dot.append(f'  {name} [label={dot_label(label)}];')
    for source, target, label in edges:
        source = 'start' if source == '[*]' else source
        target = 'end' if target == '[*]' else target
        dot.append(f'  {source} -> {target}' + (f' [label={dot_label(label)}]' if label else '') + ';')
    return '\n'.join(dot + ['}']) + '\n'


def dot_svg(dot):
    try:
        result = subprocess.run(['dot', '-Tsvg'], input=dot, capture_output=True, text=True, check=False)
    except FileNotFoundError:
        raise MermaidError('Graphviz\'s dot is missing (Debian: graphviz; scripts/docs-site.sh installs it)')
    if result.returncode != 0:
        raise MermaidError(f'dot failed: {result.stderr.strip()}')
    return result.stdout


def mermaid_blocks(text):
    return [block.split('\n') for block in re.findall(r'```mermaid\n(.*?)\n```', text, re.S)]


if __name__ == '__main__':
    for path in sys.argv[1:]:
        with open(path, encoding='utf-8') as handle:
            blocks = mermaid_blocks(handle.read())
        for n, block in enumerate(blocks, 1):
            target = f'{path[:-3]}-{n}.svg'
            with open(target, 'w', encoding='utf-8') as handle:
                handle.write(render(block))
            print(target)
