#!/usr/bin/env python3
"""Loads the built DocC site in headless Chromium and fails on what a reader would see broken.

It serves the site (.docs-site/site, from scripts/docs-site.sh build) on loopback, starts Chromium with its
DevTools protocol, and opens the landing page, every article (the walkthrough chapters, the FAQ cards, the ledger,
Getting started), every tutorial page and a symbol page (--all-symbols: every symbol page), and checks every link to the site on
them. A page fails when:
- it renders empty (no title, or less text than a page has) or shows DocC's "page not found";
- a JavaScript exception is thrown, console.error is called, or the browser logs an error (a failed request);
- a link on it to the site itself leads nowhere: no page data for its path, or no heading for its #fragment;
- an image on it (a diagram) names a file the site does not have, or loaded with no pixels.
Links to other sites (the original on GitHub) are not followed: the check runs offline.
Screenshots of the landing page, one lesson, one symbol page and chapter 11's first diagram go to
.docs-site/screenshots/.

Standard library only (a small WebSocket client below), so it runs on a fresh clone.

Usage: python3 scripts/docs-browser-check.py [--site .docs-site/site] [--chromium chromium]
"""
import argparse
import base64
import functools
import http.server
import json
import os
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request

LANDING = 'documentation/sdport'
LESSON = 'documentation/sdport/03-cache'
SYMBOL = 'documentation/sdport/sdimagecache'
PICTURES = 'documentation/sdport/11-pictures-from-real-runs'  # its screenshot shows its first diagram


class WebSocket:
    """The client half of RFC 6455, text frames only: enough for the DevTools protocol."""

    def __init__(self, url):
        parts = urllib.parse.urlparse(url)
        self.sock = socket.create_connection((parts.hostname, parts.port), timeout=60)
        key = base64.b64encode(os.urandom(16)).decode()
        request = (f'GET {parts.path} HTTP/1.1\r\nHost: {parts.hostname}:{parts.port}\r\nUpgrade: websocket\r\n'
                   f'Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n')
        self.sock.sendall(request.encode())
        head = b''
        while b'\r\n\r\n' not in head:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise ConnectionError('DevTools closed the connection during the handshake')
            head += chunk
        head, self.buffer = head.split(b'\r\n\r\n', 1)
        if b' 101 ' not in head.split(b'\r\n')[0]:
            raise ConnectionError(f'DevTools refused the WebSocket: {head[:200]!r}')

    def _exactly(self, n):
        while len(self.buffer) < n:
            chunk = self.sock.recv(1 << 16)
            if not chunk:
                raise ConnectionError('DevTools closed the connection')
            self.buffer += chunk
        data, self.buffer = self.buffer[:n], self.buffer[n:]
        return data

    def _frame(self, opcode, payload):
        mask = os.urandom(4)
        n = len(payload)
        if n < 126:
            header = struct.pack('!BB', 0x80 | opcode, 0x80 | n)
        elif n < 1 << 16:
            header = struct.pack('!BBH', 0x80 | opcode, 0x80 | 126, n)
        else:
            header = struct.pack('!BBQ', 0x80 | opcode, 0x80 | 127, n)
        self.sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    def send(self, text):
        self._frame(0x1, text.encode())

    def recv(self):
        message = b''
        while True:
            first, second = self._exactly(2)
            opcode, n = first & 0x0F, second & 0x7F
            if n == 126:
                n = struct.unpack('!H', self._exactly(2))[0]
            elif n == 127:
                n = struct.unpack('!Q', self._exactly(8))[0]
            payload = self._exactly(n)
            if opcode == 0x8:
                raise ConnectionError('DevTools closed the WebSocket')
            if opcode == 0x9:
                self._frame(0xA, payload)
                continue
            message += payload
            if first & 0x80:
                return message.decode()


class DevTools:
    def __init__(self, url):
        self.ws = WebSocket(url)
        self.next_id = 0
        self.events = []

    def call(self, method, **params):
        self.next_id += 1
        self.ws.send(json.dumps({'id': self.next_id, 'method': method, 'params': params}))
        while True:
            message = json.loads(self.ws.recv())
            if message.get('id') == self.next_id:
                if 'error' in message:
                    raise RuntimeError(f'{method}: {message["error"]}')
                return message.get('result', {})
            if 'method' in message:
                self.events.append(message)

    def drain(self, seconds):
        """Collects events for a while (the protocol answers a cheap call, so events in flight arrive)."""
        end = time.time() + seconds
        while time.time() < end:
            self.call('Runtime.evaluate', expression='1')
            time.sleep(0.05)


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    failures = []

    def log_message(self, *args):
        pass

    def send_error(self, code, message=None, explain=None):
        QuietHandler.failures.append(f'{code} {self.path}')
        super().send_error(code, message, explain)


def anchors_of(node, found):
    if isinstance(node, dict):
        if isinstance(node.get('anchor'), str):
            found.add(node['anchor'])
        for value in node.values():
            anchors_of(value, found)
    elif isinstance(node, list):
        for value in node:
            anchors_of(value, found)
    return found


def pages_to_load(site, all_symbols):
    """Site paths (without the leading /) of the landing page, articles, tutorials, and the symbol pages: the
    one screenshot's, or all of them."""
    data = os.path.join(site, 'data')
    pages = []
    for folder, _, files in os.walk(data):
        for name in files:
            if not name.endswith('.json'):
                continue
            path = os.path.relpath(os.path.join(folder, name), data)[:-5]
            with open(os.path.join(folder, name), encoding='utf-8') as handle:
                page = json.load(handle)
            kind = page.get('kind')
            role = page.get('metadata', {}).get('role')
            # Articles sit right under the module; deeper "… Implementations" groups are symbol pages' parts.
            article = kind == 'article' and role in ('article', 'collectionGroup') and path.count('/') == 2
            if path in (LANDING, LESSON, SYMBOL, PICTURES) or path.startswith('tutorials/') or article \
                    or (all_symbols and kind == 'symbol'):
                pages.append(path)
    return sorted(set(pages), key=lambda p: (p != LANDING, not p.startswith('tutorials'), p))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--site', default='.docs-site/site')
    parser.add_argument('--chromium', default=shutil.which('chromium') or 'chromium')
    parser.add_argument('--shots', default='.docs-site/screenshots')
    parser.add_argument('--all-symbols', action='store_true',
                        help='load every symbol page too (about 1 000; links to them are checked either way)')
    args = parser.parse_args()
    site = os.path.abspath(args.site)
    if not os.path.isdir(os.path.join(site, 'data')):
        sys.exit(f'docs-browser-check: no site in {site}; run scripts/docs-site.sh build first')
    started = time.time()

    server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), functools.partial(QuietHandler, directory=site))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f'http://127.0.0.1:{server.server_address[1]}/'

    profile = tempfile.mkdtemp(prefix='docs-browser-check-')
    chromium = subprocess.Popen(
        [args.chromium, '--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage',
         '--no-first-run', '--no-default-browser-check', '--disable-extensions', '--remote-debugging-port=0',
         '--remote-allow-origins=*', f'--user-data-dir={profile}', '--window-size=1280,900', 'about:blank'],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    problems = []
    loaded = 0
    links_checked = set()
    images_checked = set()
    try:
        port_file = os.path.join(profile, 'DevToolsActivePort')
        for _ in range(300):
            if os.path.exists(port_file) and open(port_file).read().count('\n') >= 1:
                break
            if chromium.poll() is not None:
                sys.exit(f'docs-browser-check: {args.chromium} exited with {chromium.returncode}')
            time.sleep(0.1)
        port = open(port_file).read().split('\n')[0]
        targets = json.load(urllib.request.urlopen(f'http://127.0.0.1:{port}/json/list'))
        page_target = next(t for t in targets if t.get('type') == 'page')
        tools = DevTools(page_target['webSocketDebuggerUrl'])
        for domain in ('Page', 'Runtime', 'Log', 'Network'):
            tools.call(f'{domain}.enable')
        tools.call('Emulation.setDeviceMetricsOverride', width=1280, height=900, deviceScaleFactor=1, mobile=False)

        anchors_cache = {}

        def page_exists(path):
            path = path.strip('/').lower()
            return os.path.exists(os.path.join(site, 'data', path + '.json'))

        def anchors(path):
            path = path.strip('/').lower()
            if path not in anchors_cache:
                with open(os.path.join(site, 'data', path + '.json'), encoding='utf-8') as handle:
                    anchors_cache[path] = anchors_of(json.load(handle), set())
            return anchors_cache[path]

        probe = '''(() => {
            const main = document.querySelector('main') || document.body;
            const h1 = document.querySelector('h1');
            return JSON.stringify({
                title: h1 ? h1.innerText.trim() : '',
                text: main ? main.innerText.length : 0,
                notFound: /can.t be found|page not found/i.test(document.body.innerText.slice(0, 2000)),
                links: [...document.querySelectorAll('a[href]')].map(a => a.href),
                images: [...document.querySelectorAll('main img')].map(i => ({src: i.currentSrc || i.src,
                    complete: i.complete, width: i.naturalWidth})),
                ids: [...document.querySelectorAll('[id]')].map(e => e.id)
            });
        })()'''
        pages = pages_to_load(site, args.all_symbols)
        os.makedirs(args.shots, exist_ok=True)
        for path in pages:
            tools.events.clear()
            tools.call('Page.navigate', url=base + path)
            state, last = None, None
            for _ in range(100):  # until the title is there and the text stops growing, at most ~10 s
                time.sleep(0.1)
                result = tools.call('Runtime.evaluate', expression=probe, returnByValue=True)
                state = json.loads(result['result']['value'])
                if state['title'] and state['text'] > 150 and last and last['text'] == state['text'] \
                        and len(last['links']) == len(state['links']):
                    break
                last = state
            tools.drain(0.2)
            loaded += 1
            where = '/' + path
            if not state['title'] or state['text'] <= 150:
                problems.append(f'{where}: renders empty (title {state["title"]!r}, {state["text"]} characters)')
            if state['notFound']:
                problems.append(f'{where}: shows "page not found"')
            for event in tools.events:
                method, params = event['method'], event['params']
                if method == 'Runtime.exceptionThrown':
                    details = params['exceptionDetails']
                    text = details.get('exception', {}).get('description') or details.get('text')
                    problems.append(f'{where}: JavaScript exception: {text}')
                elif method == 'Runtime.consoleAPICalled' and params['type'] == 'error':
                    text = ' '.join(str(a.get('value', a.get('description', ''))) for a in params['args'])
                    problems.append(f'{where}: console.error: {text}')
                elif method == 'Log.entryAdded' and params['entry']['level'] == 'error':
                    entry = params['entry']
                    problems.append(f'{where}: browser error: {entry["text"]} {entry.get("url", "")}')
                elif method == 'Network.loadingFailed' and not params.get('canceled'):
                    problems.append(f'{where}: request failed: {params.get("errorText")}')
            for href in state['links']:
                if not href.startswith(base):
                    continue
                parts = urllib.parse.urlparse(href)
                target = parts.path.strip('/')
                key = (target, parts.fragment, target == path)
                if key in links_checked:
                    continue
                links_checked.add(key)
                if not (target.startswith('documentation') or target.startswith('tutorials')):
                    if not os.path.exists(os.path.join(site, target)):
                        problems.append(f'{where}: link to /{target}: no such file')
                    continue
                if not page_exists(target):
                    problems.append(f'{where}: link to /{target}: no such page')
                elif parts.fragment and target == path:
                    # The browser tries the fragment as written, then decoded (DocC percent-encodes non-ASCII).
                    if not {parts.fragment, urllib.parse.unquote(parts.fragment)} & set(state['ids']):
                        problems.append(f'{where}: link to #{parts.fragment} on the same page: no such element')
                elif parts.fragment and not {parts.fragment, urllib.parse.unquote(parts.fragment)} & anchors(target):
                    problems.append(f'{where}: link to /{target}#{parts.fragment}: no such heading')
            for image in state['images']:
                if not image['src'].startswith(base):
                    continue
                target = urllib.parse.urlparse(image['src']).path.strip('/')
                images_checked.add(target)
                if not os.path.exists(os.path.join(site, urllib.parse.unquote(target))):
                    problems.append(f'{where}: image /{target}: no such file')
                elif image['complete'] and image['width'] == 0:
                    problems.append(f'{where}: image /{target}: loaded with no pixels')
            if path == PICTURES:
                if not state['images']:
                    problems.append(f'{where}: no diagram images')
                tools.call('Runtime.evaluate',
                           expression="document.querySelector('main img').scrollIntoView(); window.scrollBy(0, -120)")
                tools.drain(0.5)
            if path in (LANDING, LESSON, SYMBOL, PICTURES):
                shot = tools.call('Page.captureScreenshot', format='png', captureBeyondViewport=False)
                name = path.split('/')[-1] + '.png'
                with open(os.path.join(args.shots, name), 'wb') as handle:
                    handle.write(base64.b64decode(shot['data']))
        for path in (LANDING, LESSON, SYMBOL, PICTURES):
            if path not in pages:
                problems.append(f'/{path}: expected page is missing from the site')
        problems.extend(f'server answered {failure}' for failure in QuietHandler.failures)
    finally:
        chromium.terminate()
        try:
            chromium.wait(timeout=10)
        except subprocess.TimeoutExpired:
            chromium.kill()
        server.shutdown()
        shutil.rmtree(profile, ignore_errors=True)

    seconds = time.time() - started
    print(f'docs-browser-check: {loaded} pages loaded, {len(links_checked)} internal links and '
          f'{len(images_checked)} images checked, '
          f'{len(problems)} problems, {seconds:.0f} s; screenshots in {args.shots}/')
    for problem in problems:
        print('  ' + problem)
    sys.exit(1 if problems else 0)


if __name__ == '__main__':
    main()
