"""Unit tests of scripts/knowledge.py, the reader of Docs/knowledge/ (run by scripts/test.sh)."""
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

SCRIPTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.dirname(SCRIPTS)
sys.path.insert(0, SCRIPTS)
import knowledge  # noqa: E402
import parity_spec  # noqa: E402

SWIFT = '''public final class Cache {
    public func store(_ data: Data, forKey key: String) {
        write(data)
    }
}
'''


ORIGINAL_M = '''@implementation Cache
- (void)store {
    dispatch_async(self.ioQueue, ^{
        [data writeToFile:path atomically:YES];
    });
}
@end
'''


def follow_up(question, tag='4.4.8', lines='3', token='dispatch_async(self.ioQueue', path='SDWebImage/Cache.m'):
    return {'question': question, 'answer': 'An answer.',
            'original': {'tag': tag, 'file': path, 'lines': lines, 'token': token}}


def interview_fields(number=1):
    """A card's short answer, three follow-ups (4.4.8, a 5.x one, a failure) and quiz options, distinct per number."""
    return {'short': 'There, on the io queue.',
            'followUps': [follow_up('Is the write synchronous?'),
                          follow_up('What does current 5.x do?', tag='5.21.5', lines='5', token='writeToFile'),
                          follow_up('And when the disk is full?', lines='3-4', token='atomically:YES')],
            'quiz': {'right': f'Right {number}: the cache folder.',
                     'wrong': [f'Wrong {number} alpha: the view decides.', f'Wrong {number} beta: nothing is kept.',
                               f'Wrong {number} gamma: a timer deletes it.']}}


def record_rows():
    """The token record of interview_fields()'s follow-ups (sha1 values are not compared offline)."""
    return [('4.4.8', 'SDWebImage/Cache.m', '3', 'dispatch_async(self.ioQueue', 'x'),
            ('4.4.8', 'SDWebImage/Cache.m', '3-4', 'atomically:YES', 'x'),
            ('5.21.5', 'SDWebImage/Cache.m', '5', 'writeToFile', 'x')]


class KnowledgeTree(unittest.TestCase):
    """A package root in a temporary folder with a small, valid Docs/knowledge/."""

    def setUp(self):
        self.root = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.root)
        os.makedirs(os.path.join(self.root, 'Sources', 'SDPort'))
        with open(os.path.join(self.root, 'Sources', 'SDPort', 'Cache.swift'), 'w', encoding='utf-8') as handle:
            handle.write(SWIFT)
        self.write('index.json', {
            'faq': ['FAQ-01'], 'myths': ['m'], 'differences': ['d'],
            'parity': {'title': 'Spec', 'intro': ['An intro.'], 'sections': [
                {'heading': 'FAQ', 'ids': ['FAQ-01']}, {'heading': 'Planned (later)', 'ids': ['MUS-01']}]}})
        self.write('faq/FAQ-01.json', {'id': 'FAQ-01', 'question': 'Where?', 'answer': 'There.',
                                       'tests': ['FAQ01_Tests.test_FAQ01_x'], 'topic': 'cache',
                                       'drill': {'rule': 'r', 'file': 'Sources/SDPort/Cache.swift', 'find': 'write(data)',
                                                 'replace': 'print(data)', 'tests': 'FAQ01_'},
                                       **interview_fields()})
        self.write_record(record_rows())
        self.write('myths/m.json', {'id': 'm', 'topic': 'cache', 'belief': 'b', 'source': 'A0', 'trueIn': 'never',
                                    'truth': 't', 'original': ['SDImageCache.m -a #L3'], 'test': 'T.test_x'})
        self.write('differences/d.json', {'slug': 'd', 'original': 'a `|` b', 'port': 'c', 'why': 'w',
                                          'tests': ['test_A_b', '`sdport-bench memory` (case)']})
        self.write('parity/FAQ-01.json', {'id': 'FAQ-01', 'spec': 'The first behaviour, long enough to be wrapped. ' * 4,
                                          'port': {'file': 'Sources/SDPort/Cache.swift', 'anchor': 'write(data)',
                                                   'symbol': 'Cache.store(_:forKey:)'},
                                          'original': ['SDImageCache.m -storeImage:']})
        self.write('parity/MUS-01.json', {'id': 'MUS-01', 'spec': 'A museum.', 'planned': True})

    def write_record(self, rows):
        with open(os.path.join(self.root, knowledge.TOKEN_RECORD), 'w', encoding='utf-8') as handle:
            handle.write(knowledge.record_text(rows))

    def card(self, **changes):
        """Rewrites FAQ-01 with `changes` applied (None removes a field)."""
        path = os.path.join(self.root, knowledge.KNOWLEDGE, 'faq', 'FAQ-01.json')
        with open(path, encoding='utf-8') as handle:
            card = json.load(handle)
        for name, value in changes.items():
            if value is None:
                card.pop(name, None)
            else:
                card[name] = value
        self.write('faq/FAQ-01.json', card)

    def write(self, relative, value):
        path = os.path.join(self.root, knowledge.KNOWLEDGE, relative)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, 'w', encoding='utf-8') as handle:
            json.dump(value, handle)

    def load(self):
        problems = []
        data = knowledge.load(self.root, problems.append)
        return data, problems


class LoadTests(KnowledgeTree):
    def test_a_valid_tree_loads_in_index_order_without_problems(self):
        data, problems = self.load()
        self.assertEqual(problems, [])
        self.assertEqual([item['id'] for item in data.parity], ['FAQ-01', 'MUS-01'])
        self.assertEqual(data.faq[0]['question'], 'Where?')
        self.assertEqual([s['heading'] for s in data.sections], ['FAQ', 'Planned (later)'])

    def test_an_unlisted_file_and_a_listed_missing_one_are_problems(self):
        self.write('myths/extra.json', {'id': 'extra'})
        os.remove(os.path.join(self.root, knowledge.KNOWLEDGE, 'differences', 'd.json'))
        _, problems = self.load()
        self.assertTrue(any('myths/extra.json: not listed' in p for p in problems), problems)
        self.assertTrue(any('lists d, but there is no' in p for p in problems), problems)

    def test_a_wrong_id_a_missing_field_and_an_unknown_field_are_problems(self):
        self.write('faq/FAQ-01.json', {'id': 'FAQ-02', 'question': 'Where?', 'answer': '', 'tests': ['x'],
                                       'qestion': 'typo', **interview_fields()})
        _, problems = self.load()
        self.assertTrue(any('"answer" must be a non-empty str' in p for p in problems), problems)
        self.assertTrue(any('unknown field "qestion"' in p for p in problems), problems)
        self.write('faq/FAQ-01.json', {'id': 'FAQ-02', 'question': 'Where?', 'answer': 'a', 'tests': ['x'],
                                       **interview_fields()})
        _, problems = self.load()
        self.assertTrue(any("its id is FAQ-02, not the file's name" in p for p in problems), problems)

    def test_a_card_needs_a_built_parity_id(self):
        self.write('parity/FAQ-01.json', {'id': 'FAQ-01', 'spec': 'x', 'planned': True})
        _, problems = self.load()
        self.assertTrue(any('no built parity ID FAQ-01' in p for p in problems), problems)

    def test_a_port_file_outside_sources_is_a_problem(self):
        self.write('parity/FAQ-01.json', {'id': 'FAQ-01', 'spec': 'x', 'original': [],
                                          'port': {'file': 'Tests/X.swift', 'anchor': 'a', 'symbol': ''}})
        _, problems = self.load()
        self.assertTrue(any('is not under Sources/' in p for p in problems), problems)


class SymbolTests(KnowledgeTree):
    def test_a_stored_symbol_is_compared_with_what_the_anchor_resolves_to(self):
        data, _ = self.load()
        [(item, stored, resolved)] = knowledge.port_symbols(data, self.root)
        self.assertEqual((item['id'], stored, resolved), ('FAQ-01', 'Cache.store(_:forKey:)', 'Cache.store(_:forKey:)'))
        # The anchored line moves into another method: the stored symbol is stale.
        with open(os.path.join(self.root, 'Sources', 'SDPort', 'Cache.swift'), 'w', encoding='utf-8') as handle:
            handle.write(SWIFT.replace('public func store(_ data: Data, forKey key: String)', 'func save(_ data: Data)'))
        [(_, stored, resolved)] = knowledge.port_symbols(data, self.root)
        self.assertEqual(resolved, 'Cache.save(_:)')
        self.assertNotEqual(stored, resolved)

    def test_a_gone_anchor_is_a_problem(self):
        data, _ = self.load()
        data.parity[0]['port']['anchor'] = 'no such text'
        problems = []
        [(_, _, resolved)] = knowledge.port_symbols(data, self.root, problems.append)
        self.assertIsNone(resolved)
        self.assertEqual(len(problems), 1)
        self.assertIn('FAQ-01', problems[0])

    def test_the_check_fails_on_a_stale_symbol_and_generate_refreshes_it(self):
        os.makedirs(os.path.join(self.root, 'scripts'))
        for name in ('knowledge.py', 'citations.py'):
            shutil.copy(os.path.join(SCRIPTS, name), os.path.join(self.root, 'scripts', name))
        self.write('parity/FAQ-01.json', {'id': 'FAQ-01', 'spec': 'x', 'original': [],
                                          'port': {'file': 'Sources/SDPort/Cache.swift', 'anchor': 'write(data)',
                                                   'symbol': 'Cache.old()'}})
        spec = importlib.util.spec_from_file_location('knowledge_copy', os.path.join(self.root, 'scripts', 'knowledge.py'))
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        self.assertEqual(module.main(['--check']), 1, 'a stale symbol fails the check')
        self.assertEqual(module.main([]), 0)
        with open(os.path.join(self.root, knowledge.KNOWLEDGE, 'parity', 'FAQ-01.json'), encoding='utf-8') as handle:
            self.assertEqual(json.load(handle)['port']['symbol'], 'Cache.store(_:forKey:)')
        self.assertEqual(module.main(['--check']), 0, 'current after generating')


class ViewTests(KnowledgeTree):
    def test_the_spec_view_is_generated_wrapped_and_sectioned(self):
        data, _ = self.load()
        text = knowledge.spec_markdown(data)
        lines = text.split('\n')
        self.assertTrue(lines[0].startswith('<!-- Generated by') and 'Docs/knowledge/parity' in lines[0])
        self.assertEqual(lines[1:4], ['# Spec', '', 'An intro.'])
        self.assertIn('## FAQ\n- FAQ-01 The first behaviour', text)
        self.assertIn('## Planned (later)\n- MUS-01 A museum.', text)
        self.assertTrue(all(len(line) <= 118 for line in lines[1:]), 'wrapped')
        self.assertTrue(any(line.startswith('  ') for line in lines), 'continuation lines are indented')

    def test_the_differences_table_renders_each_item_as_a_row(self):
        data, _ = self.load()
        table = knowledge.differences_table(data)
        self.assertEqual(table, '| 4.4.8 | the port | why | test |\n|---|---|---|---|\n'
                                '| a `|` b | c | w | `test_A_b`, `sdport-bench memory` (case) |\n')
        self.assertEqual(knowledge.fill_differences('before\n<!-- DIFFERENCES -->\nafter\n', data),
                         'before\n' + table + 'after\n')


class ParitySpecTests(KnowledgeTree):
    def test_ids_texts_and_planned_come_from_the_data(self):
        spec = parity_spec.read(self.root)
        self.assertEqual(spec.ids, ['FAQ-01', 'MUS-01'])
        self.assertEqual(spec.planned, ['MUS-01'])
        self.assertEqual(spec.items['FAQ-01']['port']['anchor'], 'write(data)')


class InterviewCardTests(KnowledgeTree):
    """The 30-second answer, the follow-ups and their citations."""

    def test_a_short_answer_over_seventy_words_is_a_problem(self):
        self.card(short=' '.join(['word'] * 71))
        _, problems = self.load()
        self.assertTrue(any('"short" has 71 words, more than 70' in p for p in problems), problems)
        self.card(short=' '.join(['word'] * 70))
        self.assertEqual(self.load()[1], [])

    def test_fewer_than_three_follow_ups_or_a_bad_citation_are_problems(self):
        fields = interview_fields()
        self.card(followUps=fields['followUps'][:2])
        _, problems = self.load()
        self.assertTrue(any('2 follow-ups, fewer than 3' in p for p in problems), problems)
        bad = follow_up('Where?', lines='9-3')
        bad['original'].pop('token')
        self.card(followUps=fields['followUps'] + [bad, follow_up('Where?', tag='main'), follow_up('Where?', path='../x')])
        _, problems = self.load()
        self.assertTrue(any('follow-up 4: original needs a non-empty tag, file, lines and token' in p for p in problems),
                        problems)
        self.assertTrue(any('follow-up 5: tag main is not a release tag' in p for p in problems), problems)
        self.assertTrue(any('follow-up 6: file ../x is not a path inside the repository' in p for p in problems),
                        problems)

    def test_a_follow_up_cites_the_version_its_question_names(self):
        fits = knowledge.tag_fits
        self.assertIsNone(fits('Is it persisted?', '4.4.8'))
        self.assertIn('names no version', fits('Is it persisted?', '5.21.5'))
        self.assertIsNone(fits('What does current 5.x do?', '5.21.5'))
        self.assertIn('not a version its question names', fits('What does current 5.x do?', '5.0.0'))
        self.assertIn('not a version its question names', fits('What does 5.x do?', '4.4.8'))
        self.assertIsNone(fits('What does 5.x do?', '5.0.0'))
        self.assertIsNone(fits('Why did 5.2.0 change the rule?', '5.21.5'), 'a rule since 5.2.0, read where it holds')
        self.assertIsNotNone(fits('Why did 5.2.0 change the rule?', '5.1.1'))
        self.assertIsNone(fits('Could 4.0–4.4.1 expire files by last access?', '4.4.1'))
        self.assertIsNotNone(fits('Could 4.0–4.4.1 expire files by last access?', '4.4.2'))
        self.assertIsNone(fits('Since when does it go through the io queue?', '4.4.2', 'Since 4.4.2, which added it.'))
        self.card(followUps=interview_fields()['followUps'] + [follow_up('What does current 5.x do?')])
        _, problems = self.load()
        self.assertTrue(any('follow-up 4: cites 4.4.8, not a version its question names (current 5.x)' in p
                            for p in problems), problems)


class QuizOptionTests(KnowledgeTree):
    """A quiz a learner cannot pass by elimination: distinct options, no shared myths, no tell in the length."""

    def add_card(self, number, quiz):
        index = self.index()
        index['faq'] = [f'FAQ-{n:02d}' for n in range(1, number + 1)]
        index['parity']['sections'][0]['ids'] = list(index['faq'])
        self.write('index.json', index)
        self.write(f'faq/FAQ-{number:02d}.json', {'id': f'FAQ-{number:02d}', 'question': 'Q?', 'answer': 'A.',
                                                  'tests': ['T.test_x'], **interview_fields(number), 'quiz': quiz})
        self.write(f'parity/FAQ-{number:02d}.json', {'id': f'FAQ-{number:02d}', 'spec': 's',
                                                     'port': {'file': 'Sources/SDPort/Cache.swift',
                                                              'anchor': 'write(data)', 'symbol': 'Cache.store(_:forKey:)'}})

    def index(self):
        with open(os.path.join(self.root, knowledge.KNOWLEDGE, 'index.json'), encoding='utf-8') as handle:
            return json.load(handle)

    def test_two_options_of_a_card_that_say_the_same_thing_are_a_problem(self):
        quiz = interview_fields()['quiz']
        self.card(quiz={'right': quiz['right'], 'wrong': ['The view stores the image.', 'the VIEW stores the image!',
                                                          quiz['wrong'][2]]})
        _, problems = self.load()
        self.assertTrue(any('quiz options 2 and 3 say the same thing' in p for p in problems), problems)
        # Nearly the same words in another order is the same claim too; a different claim of shared words is not.
        self.assertTrue(knowledge.same_claim('The view stores the image in memory and on disk.',
                                             'In memory and on disk, the view stores the image.'))
        self.assertFalse(knowledge.same_claim('Then the oldest files go until half of maxCacheSize remains.',
                                              'Then the largest files go until the total fits under maxCacheSize.'))

    def test_a_wrong_option_of_another_card_is_a_problem(self):
        mine = interview_fields()['quiz']['wrong'][1]
        self.add_card(2, {'right': 'Short.', 'wrong': [mine.upper(), 'Another wrong one, long.',
                                                       'A third wrong one, long too.']})
        _, problems = self.load()
        self.assertTrue(any("FAQ-02.json: a wrong option is also one of FAQ-01's" in p for p in problems), problems)

    def test_the_right_option_may_be_the_longest_in_at_most_half_of_the_cards(self):
        self.add_card(2, {'right': 'The right one, and by far the longest option of the card.',
                          'wrong': ['Kilo.', 'Lima.', 'Mike.']})
        _, problems = self.load()
        self.assertEqual(problems, [], 'one of two cards is half')
        self.add_card(3, {'right': 'Again the right one, and by far the longest of its card.',
                          'wrong': ['November.', 'Oscar.', 'Papa.']})
        _, problems = self.load()
        self.assertTrue(any('the right option is the longest in 2 of 3 cards (FAQ-02, FAQ-03)' in p
                            for p in problems), problems)


class TokenRecordTests(KnowledgeTree):
    """The follow-ups' tokens, checked against the original once (--verify-tokens) and offline after (--check)."""

    def original_repository(self):
        """A git repository with SDWebImage/Cache.m at tags 4.4.8 and 5.21.5 (5.21.5 moves the write one line)."""
        repository = os.path.join(self.root, 'original')
        os.makedirs(os.path.join(repository, 'SDWebImage'))
        git = lambda *arguments: subprocess.run(['git', '-C', repository, '-c', 'user.name=t', '-c', 'user.email=t@t',
                                                 *arguments], check=True, capture_output=True)
        git('init', '-q')
        for tag, text in (('4.4.8', ORIGINAL_M), ('5.21.5', ORIGINAL_M.replace('- (void)store {\n', '- (void)store {\n\n'))):
            with open(os.path.join(repository, 'SDWebImage', 'Cache.m'), 'w', encoding='utf-8') as handle:
                handle.write(text)
            git('add', '-A')
            git('commit', '-q', '-m', tag)
            git('tag', tag)
        return repository

    def test_verify_reads_each_cited_line_at_its_tag_and_records_it(self):
        data, _ = self.load()
        problems = []
        rows = knowledge.verify_tokens(data, self.original_repository(), problems.append)
        self.assertEqual(problems, [])
        self.assertEqual([row[:4] for row in rows], [row[:4] for row in record_rows()])
        self.assertEqual(rows[0][4], knowledge.sha1('    dispatch_async(self.ioQueue, ^{'))

    def test_a_token_that_is_not_on_its_line_at_its_tag_is_a_problem(self):
        self.card(followUps=interview_fields()['followUps'] + [follow_up('Where?', lines='2'),
                                                              follow_up('What does 5.x do?', tag='5.21.5', lines='99')])
        data, _ = self.load()
        problems = []
        knowledge.verify_tokens(data, self.original_repository(), problems.append)
        self.assertEqual(problems, ["FAQ-01: 'dispatch_async(self.ioQueue' is not on SDWebImage/Cache.m:2 at 4.4.8",
                                    'FAQ-01: SDWebImage/Cache.m has no line 99 at 5.21.5'])

    def test_a_folder_of_unpacked_tags_works_like_the_repository(self):
        for tag in ('4.4.8', '5.21.5'):
            os.makedirs(os.path.join(self.root, 'tags', tag, 'SDWebImage'))
            with open(os.path.join(self.root, 'tags', tag, 'SDWebImage', 'Cache.m'), 'w', encoding='utf-8') as handle:
                handle.write(ORIGINAL_M)
        data, _ = self.load()
        problems = []
        knowledge.verify_tokens(data, os.path.join(self.root, 'tags'), problems.append)
        self.assertEqual(problems, ["FAQ-01: 'writeToFile' is not on SDWebImage/Cache.m:5 at 5.21.5"])

    def test_the_offline_check_wants_every_citation_in_the_record_with_its_token_and_nothing_else(self):
        data, _ = self.load()
        problems = []
        knowledge.check_token_record(data, self.root, problems.append)
        self.assertEqual(problems, [])
        rows = record_rows()
        self.write_record([rows[0][:3] + ('dispatch_sync(self.ioQueue', 'x')] + rows[1:] + [('4.4.8', 'F.m', '1', 't', 'x')])
        knowledge.check_token_record(data, self.root, problems.append)
        self.assertEqual(len(problems), 3, problems)
        self.assertIn("'dispatch_async(self.ioQueue' at 4.4.8 SDWebImage/Cache.m:3 is not in", problems[0])
        self.assertTrue(any("4.4.8 F.m:1 't' is cited by no follow-up" in p for p in problems), problems)


SCALE_DOWN_BEFORE = '''public enum SDWebImageCoderHelper {
    /// The size `decompressedAndScaledDownImage` gives an image of `width` × `height` pixels: both sides times
    /// sqrt(limit / pixels), truncated, as the original's `(int)(sourceResolution.width * imageScale)`
    /// (`SDWebImageImageIOCoder.m:274-277`). A side under 1/4000 of the other truncates to 0; 4.4.8 then gets no
    /// bitmap context and returns the image unscaled (`:297-299`), and so does the port.
    public static func scaledDownSize(width: Int, height: Int) -> (width: Int, height: Int) { (width, height) }
}
'''


class GuardedNumberTests(KnowledgeTree):
    """A number a card states for its rule cannot be stated differently in a doc comment about the same rule."""

    def guard(self, text):
        with open(os.path.join(self.root, 'Sources', 'SDPort', 'Helper.swift'), 'w', encoding='utf-8') as handle:
            handle.write(text)
        self.card(guardedNumbers=[{'number': '1/15,728,640', 'phrase': r'scal\w*[- ]?down'},
                                  {'number': '60 MB', 'phrase': r'scal\w*[- ]?down'}])
        data, problems = self.load()
        self.assertEqual(problems, [])
        knowledge.check_guarded_numbers(data, self.root, problems.append)
        return problems

    def test_the_1_4000_doc_comment_fails_against_the_cards_1_15728640(self):
        problems = self.guard(SCALE_DOWN_BEFORE)
        self.assertEqual(problems, ['Sources/SDPort/Helper.swift:2: a doc comment about "scal\\w*[- ]?down" states '
                                    '1/4000, but FAQ-01 states 1/15,728,640'])

    def test_the_same_number_another_kind_or_another_rule_passes(self):
        self.assertEqual(self.guard(SCALE_DOWN_BEFORE.replace('1/4000', '1/15728640')), [], 'written without commas')
        self.assertEqual(self.guard(SCALE_DOWN_BEFORE.replace('1/4000', '1/15,728,640 (or 3 MB of other things)')),
                         ['Sources/SDPort/Helper.swift:2: a doc comment about "scal\\w*[- ]?down" states 3 MB, but '
                          'FAQ-01 states 60 MB'], 'a number with a unit is compared with the guard of that unit')
        self.assertEqual(self.guard(SCALE_DOWN_BEFORE.replace('decompressedAndScaledDownImage', 'resize')), [],
                         'a comment that does not mention the rule is not held to its number')
        self.assertEqual(self.guard(SCALE_DOWN_BEFORE.replace('///', '//')), [], 'only doc comments count')

    def test_a_guard_that_is_no_number_is_a_problem(self):
        self.card(guardedNumbers=[{'number': 'about a week', 'phrase': 'maxCacheAge'}, {'number': '7 days'}])
        _, problems = self.load()
        self.assertTrue(any("'about a week' is neither 1/N nor a number with a unit" in p for p in problems), problems)
        self.assertTrue(any('a guarded number is {"number": …, "phrase": …}' in p for p in problems), problems)


class RepositoryTests(unittest.TestCase):
    def test_the_repository_knowledge_loads_without_problems(self):
        problems = []
        data = knowledge.load(ROOT, problems.append)
        self.assertEqual(problems, [])
        self.assertEqual(len(data.faq), 17)
        self.assertGreaterEqual(len(data.myths), 11)
        self.assertGreaterEqual(len(data.differences), 20)
        self.assertGreater(len(data.parity), 100)
        for card in data.faq:
            self.assertIn('drill', card, card['id'])

    def test_every_card_is_interview_ready_and_its_claims_cannot_drift(self):
        """All 17 cards: a short of at most 70 words, three follow-ups or more, each citing a line of the version its
        question speaks about (load checks that), every citation in the token record, no doc comment under Sources/
        contradicting a guarded number, and the quiz rules (load checks those across the cards)."""
        problems = []
        data = knowledge.load(ROOT, problems.append)
        knowledge.check_token_record(data, ROOT, problems.append)
        knowledge.check_guarded_numbers(data, ROOT, problems.append)
        self.assertEqual(problems, [])
        for card in data.faq:
            self.assertLessEqual(len(card['short'].split()), 70, card['id'])
            self.assertGreaterEqual(len(card['followUps']), 3, card['id'])
        self.assertGreaterEqual(sum(len(card.get('guardedNumbers', [])) for card in data.faq), 5)

    def test_the_ledger_cites_5x_only_ids_at_5_21_5(self):
        spec = importlib.util.spec_from_file_location('ledger', os.path.join(SCRIPTS, 'parity-ledger.py'))
        ledger = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(ledger)
        tables = {'4.4.8': {('A.m', '-a'): 3}, '5.21.5': {('Core/B.m', '-b'): 7}}
        problems = ledger.Problems()
        self.assertEqual(ledger.resolve_original('X-1', ['A.h -a'], None, tables, problems),
                         [('-a', 'SDWebImage/A.m:3', '4.4.8')])
        self.assertEqual(ledger.resolve_original('X-2', [], ['Core/B.m -b'], tables, problems),
                         [('-b', 'SDWebImage/Core/B.m:7', '5.21.5')])
        self.assertEqual(ledger.resolve_original('X-3', [], None, tables, problems), [])
        self.assertEqual(problems, [])
        ledger.resolve_original('X-4', ['A.m -gone'], None, tables, problems)
        self.assertEqual(len(problems), 1)


if __name__ == '__main__':
    unittest.main()
