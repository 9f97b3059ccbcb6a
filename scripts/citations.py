"""How the docs cite code, shared by Docs/walkthrough/src/resolve.py and scripts/parity-ledger.py.

- [[path#text]] → the file and the Swift symbol that holds the first line of that file (from the package root)
  containing the text: `SDImageCache.swift` · `SDImageCache.init(namespace:diskCacheDirectory:)`, linked to the
  file. Committed Markdown names no line number of the port, so moving code never makes a doc stale; the check still
  fails when the file or the text is gone, or when the text moves into another symbol.
- {{File.m symbol}} → the original's line at tag 4.4.8 with a link, from Docs/knowledge/original-lines.tsv; a header's
  method points at its .m.
- {{5: Core/File.m symbol}} → the same at tag 5.21.5, from Docs/knowledge/original-lines-5.21.5.tsv.
- {{File.m symbol #L324}} or {{File.m symbol #L324-328}} → the line (or lines) inside that symbol that decide a
  claim, linked at tag 4.4.8 (also with the 5: prefix). The line must fall inside the symbol: after its first line
  and before the next symbol the table lists for that file, so a deciding line cannot drift into another method.
- <<excerpt path#first text#last text>> → a fenced Swift excerpt of the port, from the first line containing
  `first text` to the next line containing `last text`, headed by its file and symbol (resolve.py only), so an
  excerpt is cut from the sources each time and cannot go stale.

Each function reports what it cannot resolve through `problem(message)` and leaves a visible placeholder.
"""
import functools
import os
import re

TAGS = {'4.4.8': 'original-lines.tsv', '5.21.5': 'original-lines-5.21.5.tsv'}
TABLES = os.path.join('Docs', 'knowledge')  # where the tables live (they are facts: `sdport` reads them too)
# The text may hold brackets ("= [],"): it runs to the first "]]" not followed by another "]".
PORT_MARKER = re.compile(r'(`?)\[\[([^#\]\n]+)#(.+?)\]\](?!\])\1')
ORIGINAL_MARKER = re.compile(r'\{\{([^ }]+) ([^}]+)\}\}')
ORIGINAL5_MARKER = re.compile(r'\{\{5: ([^ }]+) ([^}]+)\}\}')
DECIDING = re.compile(r'^(.*?) #L([0-9]+)(?:-([0-9]+))?$')
EXCERPT_MARKER = re.compile(r'<<excerpt ([^#>\n]+)#([^#\n]+)#([^\n]+?)>>')
# What a marker left in a written file looks like, brackets inside included.
LEFTOVER = re.compile(r'\[\[[^\n#\]]+#[^\n]*?\]\]|\{\{[^}\n]*\}\}|<<excerpt [^\n]*>>')


def github_slug(heading):
    """The anchor GitHub gives a heading (lowercase, punctuation dropped, each space a dash)."""
    text = re.sub(r'\[([^\]]*)\]\([^)]*\)', r'\1', heading).strip().lower()
    text = re.sub(r'[^\w\- ]', '', text)
    return text.replace(' ', '-')


@functools.lru_cache(maxsize=None)
def section_slugs(path):
    """The anchors of a Markdown file's headings, read once per run; None when there is no such file."""
    try:
        with open(path, encoding='utf-8') as handle:
            return frozenset(github_slug(h) for h in re.findall(r'^#{1,6} (.+)$', handle.read(), re.MULTILINE))
    except OSError:
        return None


def broken_section_links(text, directory):
    """The links of `text` (a Markdown file in `directory`) to a section of another Markdown file of the repository
    (`path.md#anchor`) whose file or heading does not exist."""
    broken = []
    for target, anchor in re.findall(r'\]\(([^)#\s]+\.md)#([^)\s]+)\)', text):
        if re.match(r'[a-z]+:', target):
            continue  # a web address
        slugs = section_slugs(os.path.normpath(os.path.join(directory, target)))
        if slugs is None:
            broken.append(f'{target}#{anchor} (no such file)')
        elif anchor not in slugs:
            broken.append(f'{target}#{anchor} (no such heading)')
    return broken


def leftovers(text):
    """Every unresolved [[path#text]], {{…}} or <<excerpt …>> marker in `text`, brackets inside included."""
    return LEFTOVER.findall(text)


def read_original_tables(root):
    """{tag: {(file, symbol): line}} for every tag's table in Docs/knowledge/."""
    tables = {}
    for tag, name in TAGS.items():
        table = {}
        with open(os.path.join(root, TABLES, name), encoding='utf-8') as handle:
            for row in handle.read().split('\n'):
                fields = row.split('\t')
                if len(fields) == 3 and not row.startswith('#'):
                    table[(fields[0], fields[1])] = int(fields[2])
        tables[tag] = table
    return tables


def find_original(table, file, symbol):
    """(file, line) where the table has `symbol`: a header's symbol is looked up in its .m first. None if absent."""
    for candidate in ([file[:-2] + '.m'] if file.endswith('.h') else []) + [file]:
        if (candidate, symbol) in table:
            return candidate, table[(candidate, symbol)]
    return None


def original_link(tag, symbol, file, line, last=None):
    anchor = f'L{line}' + (f'-L{last}' if last else '')
    lines = f'{line}' + (f'-{last}' if last else '')
    url = f'https://github.com/SDWebImage/SDWebImage/blob/{tag}/SDWebImage/{file}#{anchor}'
    return f'[`{symbol}` — `SDWebImage/{file}:{lines}`]({url})'


def symbol_end(table, file, line):
    """The line before the next symbol the table lists in `file` after `line` (None when it is the last)."""
    later = [number for (name, _), number in table.items() if name == file and number > line]
    return min(later) - 1 if later else None


def deciding(table, file, symbol, first, last, problem):
    """(file, first line) of a deciding-line citation, after checking it lies inside `symbol`; None if not."""
    found = find_original(table, file, symbol)
    if found is None:
        return None
    found_file, start = found
    end = symbol_end(table, found_file, start)
    if first < start or (end is not None and (last or first) > end) or (last is not None and last < first):
        problem(f'{file} {symbol} #L{first}{"-" + str(last) if last else ""}: outside the symbol '
                f'({found_file}:{start}-{end if end is not None else "end"})')
    return found_file


# A Swift declaration: its modifiers, then the keyword and (for all but init/subscript/deinit) its name.
DECLARATION = re.compile(
    r'^(\s*)(?:@[\w().:, "]+\s+)*(?:(?:public|internal|private|fileprivate|open|final|static|class|override|'
    r'nonisolated|convenience|required|mutating|lazy|weak|unowned|dynamic|indirect)(?:\([\w]+\))?\s+)*'
    r'(func|init[?!]?|deinit|subscript|var|let|case|class|struct|enum|protocol|extension|actor|typealias)\b\s*'
    r'([\w.`]*)')
TYPE_KEYWORDS = ('class', 'struct', 'enum', 'protocol', 'extension', 'actor')


def swift_signature(lines, index):
    """The name of the declaration on lines[index]: `name(label:label:)` for a function, init or subscript,
    `name` for a property, case or type. None when the line declares nothing."""
    match = DECLARATION.match(lines[index])
    if not match:
        return None
    keyword, name = match.group(2), match.group(3).strip('`')
    if keyword in ('func', 'subscript') or keyword.startswith('init'):
        text, depth, started = '', 0, False
        for line in lines[index:index + 12]:
            for char in line[match.end() if not text else 0:] if not text else line:
                text += char
                if char == '(':
                    depth += 1
                    started = True
                elif char == ')':
                    depth -= 1
                    if started and depth == 0:
                        break
            if started and depth == 0:
                break
            text += ' '
        generics = re.sub(r'<[^()]*?>', '', text)
        inside = generics[generics.find('(') + 1:generics.rfind(')')] if '(' in generics else ''
        labels, depth, current = [], 0, ''
        for position, char in enumerate(inside):
            if char in '([<':
                depth += 1
            elif char in ')]' or char == '>' and inside[position - 1:position] != '-':  # not the arrow of `->`
                depth -= 1
            if char == ',' and depth == 0:
                labels.append(current)
                current = ''
            else:
                current += char
        if current.strip():
            labels.append(current)
        names = [label.split(':')[0].split()[0] if label.split(':')[0].split() else '_' for label in labels]
        base = 'init' if keyword.startswith('init') else ('subscript' if keyword == 'subscript' else name)
        return f'{base}({"".join(n + ":" for n in names)})'
    if keyword == 'deinit':
        return 'deinit'
    return name or None


def port_symbol(lines, index, path='x.swift'):
    """The symbol that holds lines[index] (a Swift file; for Python the enclosing `def` or `class`; else None): the nearest member-level declaration at or above it (indented at most
    as the line itself, and at most one level in), qualified by the type or extension that holds it."""
    def indent(line):
        return len(line) - len(line.lstrip(' '))

    if path.endswith('.py'):
        limit = indent(lines[index]) + 1
        for i in range(index, -1, -1):
            match = re.match(r'^(\s*)(?:def|class)\s+(\w+)', lines[i])
            if match and len(match.group(1)) < limit:
                return match.group(2)
        return None
    if not path.endswith('.swift'):
        return None
    limit = min(indent(lines[index]), 4) if lines[index].strip() else 4
    member, member_index = None, None
    for i in range(index, -1, -1):
        line = lines[i]
        if not line.strip() or line.lstrip().startswith(('//', '*', '/*')):
            continue
        if indent(line) <= limit:
            name = swift_signature(lines, i)
            if name is not None:
                match = DECLARATION.match(line)
                member, member_index = (name, i)
                if match.group(2) in TYPE_KEYWORDS and indent(line) == 0:
                    return name
                break
    if member is None:
        return None
    for i in range(member_index - 1, -1, -1):
        match = DECLARATION.match(lines[i])
        if match and indent(lines[i]) < indent(lines[member_index]) and match.group(2) in TYPE_KEYWORDS:
            return f'{match.group(3).strip("`")}.{member}'
    return member


def port_location(root, path, text, problem):
    """(line number, symbol) of the first line of `path` containing `text`; None (and a problem) when gone."""
    try:
        with open(os.path.join(root, path), encoding='utf-8') as handle:
            lines = handle.read().split('\n')
    except OSError:
        problem(f'{path}: no such file')
        return None
    for number, line in enumerate(lines, 1):
        if text in line:
            return number, port_symbol(lines, number - 1, path)
    problem(f'no line of {path} contains {text!r}')
    return None


def port_reference(path, symbol, link_base=None):
    """How committed Markdown names a place in the port: its file and symbol, linked to the file."""
    shown = f'`{os.path.basename(path)}`' + (f' · `{symbol}`' if symbol else '')
    return f'[{shown}]({link_base}{path})' if link_base is not None else f'{path}' + (f' `{symbol}`' if symbol else '')


    for number, line in enumerate(lines, 1):
        if text in line:
            return number
    problem(f'no line of {path} contains {text!r}')
    return None


def excerpt(root, path, first, last, problem, link_base):
    """The lines of `path` from the first containing `first` to the next containing `last`, fenced, with a link."""
    try:
        with open(os.path.join(root, path), encoding='utf-8') as handle:
            lines = handle.read().split('\n')
    except OSError:
        problem(f'excerpt {path}: no such file')
        return f'`{path}`'
    start = next((i for i, line in enumerate(lines) if first in line), None)
    if start is None:
        problem(f'excerpt: no line of {path} contains {first!r}')
        return f'`{path}`'
    end = next((i for i in range(start, len(lines)) if last in lines[i]), None)
    if end is None or end - start > 60:
        problem(f'excerpt {path}: no line containing {last!r} within 60 lines after {first!r}')
        return f'`{path}`'
    body = lines[start:end + 1]
    indent = min((len(l) - len(l.lstrip(' ')) for l in body if l.strip()), default=0)
    code = '\n'.join(l[indent:] for l in body)
    symbol = port_symbol(lines, start, path)
    heading = port_reference(path, symbol, link_base) if link_base is not None else f'`{path}`'
    return f'{heading}\n\n```swift\n{code}\n```'


def resolve_markers(text, root, tables, problem, link_base=None):
    """`text` with every [[path#text]], {{5: File.m symbol}} and {{File.m symbol}} marker replaced.

    With `link_base` (the way from the written file to the package root, "../../"), a port citation becomes a
    link to its file naming its symbol, and <<excerpt …>> markers are cut from the sources."""
    def cite_port(match):
        path = match.group(2)
        found = port_location(root, path, match.group(3), problem)
        symbol = found[1] if found else None
        if link_base is None or found is None:
            shown = path + (f' {symbol}' if symbol else '')
            return f'{match.group(1)}{shown}{match.group(1)}'
        return port_reference(path, symbol, link_base)

    def citer(tag):
        def cite_original(match):
            file, symbol = match.group(1), match.group(2).strip()
            decided = DECIDING.match(symbol)
            if decided:
                symbol, first = decided.group(1).strip(), int(decided.group(2))
                last = int(decided.group(3)) if decided.group(3) else None
                found_file = deciding(tables[tag], file, symbol, first, last, problem)
                if found_file is None:
                    problem(f'{file} {symbol}: not in {TABLES}/{TAGS[tag]} (not in {tag}?)')
                    return f'`{file} {symbol}`'
                return original_link(tag, symbol, found_file, first, last)
            found = find_original(tables[tag], file, symbol)
            if found is None:
                problem(f'{file} {symbol}: not in {TABLES}/{TAGS[tag]} (not in {tag}?)')
                return f'`{file} {symbol}`'
            return original_link(tag, symbol, *found)
        return cite_original

    if link_base is not None:
        text = EXCERPT_MARKER.sub(lambda m: excerpt(root, m.group(1), m.group(2), m.group(3), problem, link_base), text)
    text = PORT_MARKER.sub(cite_port, text)
    text = ORIGINAL5_MARKER.sub(citer('5.21.5'), text)
    return ORIGINAL_MARKER.sub(citer('4.4.8'), text)
