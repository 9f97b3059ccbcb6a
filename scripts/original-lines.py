#!/usr/bin/env python3
"""Writes Docs/knowledge/original-lines.tsv: where each method, property, type, constant, function and macro of the
original SDWebImage 4.4.8 is defined, read from its source (facts: file, symbol, line; no code).

Run with a checkout of the original at tag 4.4.8 (for example `git archive 4.4.8 SDWebImage | tar -x -C /tmp/orig`):
    python3 scripts/original-lines.py /tmp/orig/SDWebImage

With `--tag 5.21.5` (a checkout at that tag: `git archive 5.21.5 SDWebImage | tar -x -C /tmp/orig5`) it reads
the 5.x layout instead, SDWebImage/Core/ and SDWebImage/Private/, and writes Docs/knowledge/original-lines-5.21.5.tsv,
whose file column is the path under SDWebImage/ (`Core/SDImageCache.m`). Doc comments cite these lines with
"/// At tag 5.21.5:".

Symbols: `-selector:with:` and `+selector` for methods (the line of the implementation in the .m, else the
declaration in the .h), plain names for properties, NS_ENUM/NS_OPTIONS types, #define macros, static constants and
C functions. Classes and protocols (`@interface`/`@protocol`/`@implementation`; a category as `Class(Category)`),
block and other typedefs, and exported string and integer constants are listed too, by name, where the rules above
found nothing for that file and name. resolve.py, `sdport faq` and the tests build every citation of the original
from this table.
"""
import os
import re
import sys

arguments = sys.argv[1:]
tag = '4.4.8'
if len(arguments) == 3 and arguments[1] == '--tag':
    tag = arguments[2]
    arguments = arguments[:1]
if len(arguments) != 1:
    sys.exit('usage: original-lines.py PATH/TO/SDWebImage [--tag 5.21.5] (a checkout at tag 4.4.8, or at the tag given)')
source = arguments[0]
# 4.4.8 keeps every file in SDWebImage/; 5.x splits them into Core/ (public) and Private/.
folders = [''] if tag == '4.4.8' else ['Core', 'Private']
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def without_parentheses(text):
    """Drops every balanced (...) group: types, casts and block signatures."""
    out, depth = [], 0
    for char in text:
        if char == '(':
            depth += 1
        elif char == ')':
            depth = max(0, depth - 1)
        elif depth == 0:
            out.append(char)
    return ''.join(out)


def selector(declaration):
    body = without_parentheses(declaration[1:]).split('{')[0].split(';')[0]
    parts = re.findall(r'(\w+)\s*:', body)
    if parts:
        return ''.join(p + ':' for p in parts)
    words = re.findall(r'\w+', body)
    return words[0] if words else None


rows = {}
# Types and exported constants (the later rules): used only where the first rules found nothing for that name,
# so adding them never moved a line the first rules give.
extra = {}
names = []
for folder in folders:
    for file in sorted(os.listdir(os.path.join(source, folder))):
        if file.endswith(('.h', '.m')):
            names.append(os.path.join(folder, file) if folder else file)
for name in names:
    with open(os.path.join(source, name), encoding='utf-8', errors='replace') as handle:
        lines = handle.read().split('\n')
    for number, line in enumerate(lines, 1):
        found = []
        if re.match(r'^[-+]\s*\(', line):
            # A method may wrap over several lines: read on to the opening brace or the semicolon.
            text, index = line, number
            while '{' not in text and ';' not in text and index < len(lines):
                text += ' ' + lines[index]
                index += 1
            sel = selector(text)
            if sel:
                found.append(line[0] + sel)
        match = re.match(r'^@property\s*(\([^)]*\))?\s*[^;]*?[\s*](\w+)\s*;', line)
        if match:
            found.append(match.group(2))
        match = re.match(r'^typedef\s+NS_(?:ENUM|OPTIONS)\s*\(\s*\w+\s*,\s*(\w+)\s*\)', line)
        if match:
            found.append(match.group(1))
        match = re.match(r'^#define\s+(\w+)', line)
        if match and not match.group(1).startswith('SD_') and not match.group(1).endswith('_h'):
            found.append(match.group(1))
        match = re.match(r'^static\s+(?:const\s+)?[\w\s*]*?\b(k\w+)\s*=', line)
        if match:
            found.append(match.group(1))
        match = re.match(r'^(?:FOUNDATION_EXPORT|inline|static inline|FOUNDATION_STATIC_INLINE)?\s*[\w\s*]*?\b(SD\w+)\s*\(', line)
        if match and not line.startswith((' ', '\t', '-', '+', '#', '/', 'typedef', '@')) and '=' not in line.split('(')[0]:
            found.append(match.group(1))
        for symbol in found:
            key = (name, symbol)
            # The first line seen: a method's definition in a .m, its declaration in a .h (readers of the
            # table look in the .m first for a header's method).
            if key not in rows:
                rows[key] = number
        later = []
        # A class, protocol or category (not a class extension `()`, not a forward `@protocol Name;`).
        match = re.match(r'^@(?:interface|protocol|implementation)\s+(\w+)\s*(?:<[^>]*>)?\s*(?:\(\s*(\w+)\s*\))?', line)
        if match and not re.match(r'^@protocol\s+\w+\s*;', line) and not re.search(r'\(\s*\)', line):
            later.append(match.group(1) + (f'({match.group(2)})' if match.group(2) else ''))
        # A block typedef, `typedef … (^Name)(…)`.
        match = re.match(r'^typedef\b[^;]*?\(\s*\^\s*(\w+)\s*\)', line)
        if match:
            later.append(match.group(1))
        # Another typedef: the name before the semicolon (`typedef NSString * SDWebImageContextOption …;`).
        match = re.match(r'^typedef\s+(?!NS_\w+\s*\(|enum\b|struct\b)[^;(]*?\b(SD\w+)\s*(?:NS_\w+)?\s*;', line)
        if match:
            later.append(match.group(1))
        # NS_ERROR_ENUM(domain, Name) and NS_CLOSED_ENUM.
        match = re.match(r'^typedef\s+NS_(?:ERROR_ENUM|CLOSED_ENUM|TYPED_EXTENSIBLE_ENUM)\s*\(\s*\w+\s*,\s*(\w+)\s*\)', line)
        if match:
            later.append(match.group(1))
        # An exported constant, declared (`FOUNDATION_EXPORT … const Name;`) or defined (`… const Name = …;`).
        match = re.match(r'^(?:FOUNDATION_EXPORT|UIKIT_EXTERN|extern)\s+[^;(=]*?\b(SD\w+)\s*(?:;|/|API_|NS_)', line)
        if match:
            later.append(match.group(1))
        match = re.match(r'^(?!static)[\w\s*]*?\bconst\s+(?:\w+\s+)?(SD\w+)\s*=', line)
        if match:
            later.append(match.group(1))
        for symbol in later:
            extra.setdefault((name, symbol), number)
for key, number in extra.items():
    rows.setdefault(key, number)

table = 'original-lines.tsv' if tag == '4.4.8' else f'original-lines-{tag}.tsv'
destination = os.path.join(root, 'Docs', 'knowledge', table)
with open(destination, 'w', encoding='utf-8') as handle:
    handle.write(f'# SDWebImage {tag}: file, symbol, line (made by scripts/original-lines.py from the original source)\n')
    for (name, symbol), number in sorted(rows.items()):
        handle.write(f'{name}\t{symbol}\t{number}\n')
print(f'original-lines.py: {len(rows)} symbols written to Docs/knowledge/{table}')
