#!/usr/bin/env python3
"""Writes the exhibits of chapter 12 (Docs/walkthrough/src/12-bug-museum.md.in) from Museum/MUS-*/exhibit.json, so
the chapter and `sdport museum` say the same. Only the text between the markers <!-- MUSEUM:BEGIN --> and
<!-- MUSEUM:END --> is written; the rest of the template is prose kept by hand.

    python3 scripts/museum-chapter.py           # rewrites the exhibit sections
    python3 scripts/museum-chapter.py --check   # writes nothing; fails when the template is not what the data makes

Each claim about the original cites its deciding lines as {{File.m symbol #Lfirst-last}} (resolve.py links them
and checks that the lines lie inside the symbol, from Docs/knowledge/original-lines.tsv); a cited range that is not inside
one symbol of the table (a header's property, a class extension) is linked to GitHub directly. Standard library only.
"""
import glob
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TEMPLATE = os.path.join(ROOT, 'Docs', 'walkthrough', 'src', '12-bug-museum.md.in')
BEGIN, END = '<!-- MUSEUM:BEGIN -->', '<!-- MUSEUM:END -->'


def original_table():
    table = {}
    with open(os.path.join(ROOT, 'Docs', 'knowledge', 'original-lines.tsv'), encoding='utf-8') as handle:
        for row in handle.read().split('\n'):
            fields = row.split('\t')
            if len(fields) == 3 and not row.startswith('#'):
                table[(fields[0], fields[1])] = int(fields[2])
    return table


def cite_original(table, cite):
    """A 4.4.8 citation as a resolve.py marker for its deciding lines, or a direct link when no symbol holds them."""
    file = cite['file'].split('/', 1)[1]  # "SDWebImage/X.m" → "X.m"
    first, _, last = cite['lines'].partition('-')
    first, last = int(first), int(last or first)
    starts = sorted((line, symbol) for (name, symbol), line in table.items() if name == file)
    inside = [(line, symbol) for line, symbol in starts if line <= first]
    if inside:
        start, symbol = inside[-1]
        later = [line for line, _ in starts if line > start]
        end = min(later) - 1 if later else None
        header_goes_to_m = file.endswith('.h') and (file[:-2] + '.m', symbol) in table
        if (end is None or last <= end) and not header_goes_to_m and '}' not in symbol:
            span = f'{first}' + (f'-{last}' if last != first else '')
            return '{{' + f'{file} {symbol} #L{span}' + '}}'
    return f"[`SDWebImage/{file}:{cite['lines']}`]({cite['url']})"


def cite_later(cite):
    if cite['tag'] == 'SDPort':
        return f"the port's `{cite['file']}` (`{cite['token']}`)"
    return f"[`{cite['file']}:{cite['lines']}` at {cite['tag']}]({cite['url']})"


def section(table, e):
    # An exhibit lists only the issues its CHANGELOG or history names; with none, the line says nothing of issues.
    issues = ''.join(f'Issues {", ".join(f"#{n}" for n in e["upstream"]["issues"])}; ' if e['upstream']['issues'] else '')
    prs = ', '.join(f'#{n}' for n in e['upstream']['pullRequests']) or 'none'
    side = 'has the bug (the patch brings the fix)' if e['portHasBug'] else 'has the fix (the patch puts 4.4.8 back)'
    lines = [f"### {e['id']} — {e['title']}", '',
             f"**Symptom.** {e['symptom']}", '',
             f"**Upstream.** {issues}{'pull requests' if issues else 'Pull requests'} {prs}; "
             f"{e['upstream']['status']}.", '',
             '**The 4.4.8 lines.**', '']
    for cite in e['cause']:
        lines.append(f"- {cite_original(table, cite)}: `{cite['token']}`")
    lines += ['', f"**Mechanism.** {e['mechanism']}", '', f"**Lesson.** {e['lesson']}", '',
              '**Later.** ' + '; '.join(cite_later(c) for c in e['fix']) + '.', '',
              f"**The port** {side}. {e['port']}", '',
              f"**Both sides.** `Museum/{e['id']}/{e['patch']}`; tests in `Tests/Museum/{e['testClass']}.swift`: "
              + ', '.join(f'`{t}`' for t in e['tests']['unpatched']) + ' on the port as it is; '
              + ', '.join(f'`{t}`' for t in e['tests']['patched']) + ' with the patch (`SDPORT_MUSEUM=patched`). '
              + f"`sdport museum {int(e['id'][4:])}` tells this story and runs it.", '']
    drawn = sorted(glob.glob(os.path.join(ROOT, 'Docs', 'diagrams', e['id'].lower() + '-*.md')))
    if drawn:
        lines += ['**Both sides, drawn from real runs** (`scripts/museum.sh diagrams`):', '']
        for path in drawn:
            lines += ['<!-- DIAGRAM ' + os.path.basename(path)[:-3] + ' -->', '']
    return '\n'.join(lines)


def render():
    table = original_table()
    exhibits = [json.load(open(p, encoding='utf-8')) for p in sorted(glob.glob(os.path.join(ROOT, 'Museum', 'MUS-*', 'exhibit.json')))]
    rows = ['| Exhibit | The bug | Port | Upstream |', '|---|---|---|---|']
    for e in exhibits:
        rows.append(f"| {e['id']} | {e['title']} | {'bug' if e['portHasBug'] else 'fix'} | {e['upstream']['status']} |")
    body = '\n'.join(rows) + '\n\n' + '\n'.join(section(table, e) for e in exhibits)
    with open(TEMPLATE, encoding='utf-8') as handle:
        text = handle.read()
    head, _, rest = text.partition(BEGIN)
    _, _, tail = rest.partition(END)
    if not rest or END not in rest:
        sys.exit(f'{TEMPLATE}: the markers {BEGIN} … {END} are missing')
    return text, head + BEGIN + '\n' + body + END + tail


def main():
    old, new = render()
    if '--check' in sys.argv[1:]:
        if old != new:
            sys.exit('12-bug-museum.md.in: the exhibit sections are stale; run python3 scripts/museum-chapter.py')
        print('12-bug-museum.md.in: exhibit sections up to date')
        return
    with open(TEMPLATE, 'w', encoding='utf-8') as handle:
        handle.write(new)
    print(f'wrote the exhibit sections of {os.path.relpath(TEMPLATE, ROOT)}')


if __name__ == '__main__':
    main()
