#!/usr/bin/env python3
"""Writes the malformed-problem corpus and its manifest, expected.tsv.

Each case is a file name, its bytes, the CLI's expected exit status and a
substring of the expected error message. Run from anywhere; it rewrites the
files next to it (deterministically: gzip members carry no time stamp).
"""
import gzip
import os
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
EX = open(os.path.join(HERE, '..', 'example.json')).read().strip()


def gz(data):
    if isinstance(data, str):
        data = data.encode()
    return gzip.compress(data, 9, mtime=0)


def rep(old, new, text=EX):
    assert old in text, old
    return text.replace(old, new, 1)


def doc(intervals, costs, usages, edge_nodes, edge_costs, extra=''):
    return ('{"problem":{"nodes":{"intervals":%s,"costs":%s,"usages":%s},'
            '"edges":{"nodes":%s,"costs":%s}%s}}' % (intervals, costs, usages, edge_nodes, edge_costs, extra))


def repeat_gz(prefix, unit, count, suffix):
    """gzip of prefix + unit * count + suffix, built without the whole text."""
    c = zlib.compressobj(9, zlib.DEFLATED, 16 + 15)
    out = [c.compress(prefix.encode())]
    chunk = (unit * 4096).encode()
    for _ in range(count // 4096):
        out.append(c.compress(chunk))
    out.append(c.compress((unit * (count % 4096)).encode()))
    out.append(c.compress(suffix.encode()))
    out.append(c.flush())
    return b''.join(out)


GOOD_GZ = gz(EX)
K = 46341  # K * K = 2147488281 > 2^31 - 1: the edge matrix size needs 64 bits

CASES = [
    # --- syntax
    ('syntax_empty.json', '', 3, 'the input is empty (no JSON document)'),
    ('syntax_whitespace_only.json', ' \n\t\r\n', 3, 'the input is empty (no JSON document)'),
    ('syntax_truncated.json', EX[:100], 3, 'JSON syntax error at byte 100 (in problem.nodes)'),
    ('syntax_truncated_in_number.json', EX[:EX.index('[55,65]') + 3], 3, 'JSON syntax error at byte'),
    ('syntax_missing_comma.json', rep('[55,65]', '[55 65]'), 3, 'JSON syntax error at byte 115 (in problem.nodes.costs[1][1])'),
    ('syntax_unquoted_key.json', rep('"usage_limit"', 'usage_limit'), 3, 'JSON syntax error at byte'),
    ('syntax_single_quotes.json', rep('"name":"example"', "'name':'example'"), 3, 'JSON syntax error at byte 12'),
    ('syntax_trailing_comma.json', rep('[95]]', '[95],]'), 3, 'JSON syntax error at byte'),
    ('syntax_trailing_garbage.json', EX + ' x', 3, '(after the top-level object)'),
    ('syntax_two_documents.json', EX + EX, 3, 'after the top-level object'),
    ('syntax_nul_byte.json', rep('[95]', '[9\0]'), 3, 'unexpected NUL byte'),
    # Strings must be UTF-8 (RFC 8259, 3629): the first, a key, is what
    # fuzz/fuzz_json_diff.cc found the parser accepting; then an encoded surrogate.
    ('syntax_invalid_utf8_in_key.json', b'{"\x90roblem":{"nod]s":[]}}', 3,
     'JSON syntax error at byte 2 (in (top level)): invalid UTF-8 in a string'),
    ('syntax_utf8_surrogate_in_name.json', EX.encode().replace(b'"example"', b'"ex\xed\xa0\x80ample"', 1), 3,
     'JSON syntax error at byte %d (in problem.name): invalid UTF-8 in a string' % (EX.index('"example"') + 4)),
    ('syntax_nul_after_document.json', EX + '\0', 3, 'unexpected NUL byte'),
    ('syntax_bad_escape.json', rep('"example"', '"ex\\u12"'), 3, 'JSON syntax error at byte'),
    ('syntax_utf8_bom.json', '\ufeff' + EX, 3, 'JSON syntax error at byte 0'),
    ('syntax_comment.json', '// the example\n' + EX, 3, 'JSON syntax error at byte 0'),
    ('syntax_binary.json', bytes(range(256)) * 2, 3, 'JSON syntax error at byte 0'),
    # A field name is escaped in messages: control characters must not break the line.
    ('syntax_control_chars_in_key.json', rep('"name":"example"', '"a\\nb\\u001b[31m\\"c" "example"'), 3,
     '(in problem.a\\x0ab\\x1b[31m\\"c): expected a colon after an object member\'s name, got \'"\''),
    ('syntax_long_key.json', rep('"name":"example"', '"' + 'k' * 5000 + '" "example"'), 3,
     '(in problem.' + 'k' * 40 + '...): expected a colon after an object member\'s name, got \'"\''),
    # --- types
    ('type_top_level_array.json', '[' + EX + ']', 3, '(top level): expected an object, got an array'),
    ('type_top_level_number.json', '42', 3, '(top level): expected an object, got a number'),
    ('type_problem_string.json', '{"problem":"example"}', 3, 'problem: expected an object, got a string'),
    ('type_nodes_array.json', '{"problem":{"nodes":[]}}', 3, 'problem.nodes: expected an object, got an array'),
    ('type_intervals_object.json', rep('"intervals":[[30,70],[40,70],[50,120],[110,140],[110,150]]', '"intervals":{}'), 3,
     'problem.nodes.intervals: expected an array, got an object'),
    ('type_row_not_array.json', rep('"costs":[[15],', '"costs":[15,'), 3, 'problem.nodes.costs[0]: expected an array, got a number'),
    ('type_cost_string.json', rep('[95]', '["95"]'), 3, 'problem.nodes.costs[4][0]: expected an integer, got a string'),
    ('type_cost_bool.json', rep('[95]', '[true]'), 3, 'problem.nodes.costs[4][0]: expected an integer, got a boolean'),
    ('type_cost_null.json', rep('[95]', '[null]'), 3, 'problem.nodes.costs[4][0]: expected an integer, got null'),
    ('type_name_number.json', rep('"name":"example"', '"name":7'), 3, 'problem.name: expected a string, got a number'),
    ('type_usage_limit_string.json', rep('"usage_limit":50', '"usage_limit":"50"'), 3,
     'problem.usage_limit: expected an integer, got a string'),
    ('type_float_cost.json', rep('[95]', '[9.5]'), 3, 'problem.nodes.costs[4][0]: expected an integer, got a number with a fraction or exponent'),
    ('type_exponent_usage.json', rep('[[10],', '[[1e1],'), 3, 'problem.nodes.usages[0][0]: expected an integer, got a number with a fraction or exponent'),
    ('type_float_interval.json', rep('[30,70]', '[30,70.0]'), 3, 'problem.nodes.intervals[0][1]: expected an integer'),
    ('type_float_usage_limit.json', rep('"usage_limit":50', '"usage_limit":50.5'), 3, 'problem.usage_limit: expected an integer'),
    # --- shapes
    ('shape_missing_problem.json', '{"name":"example"}', 3, 'missing field problem'),
    ('shape_missing_nodes.json', '{"problem":{"edges":{"nodes":[],"costs":[]}}}', 3, 'missing field problem.nodes'),
    ('shape_missing_edge_costs.json', rep(',"costs":[[30,40],[50,10,40],[90,10,20,80],[60,20,30],[70,60]]', ''), 3,
     'missing field problem.edges.costs'),
    ('shape_duplicate_field.json', rep('"usage_limit":50', '"usage_limit":50,"usage_limit":60'), 3, 'duplicate field problem.usage_limit'),
    ('shape_node_count_mismatch.json', rep(',[110,150]]', ']'), 3,
     'node count mismatch: problem.nodes.intervals has 4 entries, problem.nodes.costs 5, problem.nodes.usages 5'),
    ('shape_strategy_count_mismatch.json', rep('[15,20,15]', '[15,20]'), 3,
     'strategy count mismatch at node 2: problem.nodes.costs[2] has 3 entries, problem.nodes.usages[2] has 2'),
    ('shape_node_without_strategies.json', doc('[[0,1]]', '[[]]', '[[]]', '[]', '[]'), 3,
     'problem.nodes.costs[0]: a node needs at least one strategy'),
    ('shape_interval_triple.json', rep('[30,70]', '[30,70,90]'), 3, 'problem.nodes.intervals[0]: an interval must be a pair [lo, hi], got more than 2 values'),
    ('shape_interval_single.json', rep('[30,70]', '[30]'), 3, 'problem.nodes.intervals[0]: an interval must be a pair [lo, hi], got 1 value'),
    ('shape_edge_triple.json', rep('[0,1]', '[0,1,2]'), 3, 'problem.edges.nodes[0]: an edge must be a pair of node indices [u, v], got more than 2 values'),
    ('shape_edge_matrix_wrong_length.json', rep('[70,60]', '[70]'), 3,
     'problem.edges.costs[4]: has 1 entries, expected 2 (2 strategies of node 3 x 1 of node 4)'),
    ('shape_edge_count_mismatch.json', rep(',[70,60]]', ']'), 3,
     'edge count mismatch: problem.edges.nodes has 5 entries, problem.edges.costs has 4'),
    # --- ranges
    ('range_interval_reversed.json', rep('[110,140]', '[140,110]'), 3, 'problem.nodes.intervals[3]: lower end 140 exceeds upper end 110'),
    ('range_edge_node_out_of_range.json', rep('[3,4]]', '[3,5]]'), 3,
     'problem.edges.nodes[4][1]: node index 5 out of range (the problem has 5 nodes)'),
    ('range_edge_node_negative.json', rep('[0,1]', '[-1,1]'), 3, 'problem.edges.nodes[0][0]: node index -1 out of range (indices are non-negative)'),
    ('range_edge_node_above_int32.json', rep('[0,1]', '[0,2147483648]'), 3,
     'problem.edges.nodes[0][1]: node index 2147483648 out of range (above 2^31 - 1)'),
    ('range_negative_cost.json', rep('[95]', '[-95]'), 3, 'problem.nodes.costs[4][0]: costs must be non-negative, got -95'),
    ('range_negative_usage.json', rep('[[10],', '[[-10],'), 3, 'problem.nodes.usages[0][0]: usages must be non-negative, got -10'),
    ('range_negative_edge_cost.json', rep('[30,40]', '[30,-40]'), 3, 'problem.edges.costs[0][1]: costs must be non-negative, got -40'),
    ('range_negative_usage_limit.json', rep('"usage_limit":50', '"usage_limit":-1'), 3, 'problem.usage_limit: usage limit must be non-negative'),
    # --- overflow
    ('overflow_cost_int64.json', rep('[95]', '[9223372036854775808]'), 3, 'problem.nodes.costs[4][0]: integer out of the int64 range'),
    ('overflow_interval_below_int64.json', rep('[30,70]', '[-9223372036854775809,70]'), 3, 'problem.nodes.intervals[0][0]: integer out of the int64 range'),
    ('overflow_usage_limit.json', rep('"usage_limit":50', '"usage_limit":18446744073709551616'), 3, 'problem.usage_limit: integer out of the int64 range'),
    ('overflow_thousand_digits.json', rep('[95]', '[' + '9' * 1000 + ']'), 3, 'problem.nodes.costs[4][0]: integer out of the int64 range'),
    ('overflow_horizon_beyond_int64.json', rep('[110,150]', '[0,99999999999999999999]'), 3, 'problem.nodes.intervals[4][1]: integer out of the int64 range'),
    # --- nesting
    ('nesting_deep_in_costs.json', rep('[[15],', '[' + '[' * 10000), 3, 'problem.nodes.costs[0][0]: expected an integer, got an array'),
    ('nesting_object_in_row.json', rep('[95]', '[{"a":1}]'), 3, 'problem.nodes.costs[4][0]: expected an integer, got an object'),
    ('nesting_deep_unclosed_unknown.json.gz', repeat_gz('{"x":', '[', 1000000, ''), 3,
     'JSON syntax error at byte 1000005 of the decompressed JSON'),
    ('nesting_deep_objects_unclosed.json.gz', repeat_gz('{"problem":{"unknown":', '{"a":', 200000, ''), 3,
     'JSON syntax error at byte 1000022 of the decompressed JSON'),
    # --- enormous counts and horizons (gzip keeps the files small)
    ('enormous_interval_count.json.gz',
     repeat_gz('{"problem":{"nodes":{"intervals":[', '[0,1],', 1000000, '[0,1]],"costs":[[1]],"usages":[[1]]},"edges":{"nodes":[],"costs":[]}}}'), 3,
     'node count mismatch: problem.nodes.intervals has 1000001 entries, problem.nodes.costs 1, problem.nodes.usages 1'),
    ('enormous_edge_count.json.gz',
     repeat_gz('{"problem":{"nodes":{"intervals":[[0,1]],"costs":[[1]],"usages":[[1]]},"edges":{"nodes":[', '[0,0],', 1000000,
               '[0,0]],"costs":[[1]]}}}'), 3,
     'edge count mismatch: problem.edges.nodes has 1000001 entries, problem.edges.costs has 1'),
    ('enormous_strategies_edge_matrix.json.gz',
     gz(doc('[[0,1],[0,1]]', '[[%s],[%s]]' % (','.join(['0'] * K), ','.join(['0'] * K)),
            '[[%s],[%s]]' % (','.join(['0'] * K), ','.join(['0'] * K)), '[[0,1]]', '[[0]]')), 3,
     'problem.edges.costs[0]: has 1 entries, expected 2147488281 (46341 strategies of node 0 x 46341 of node 1)'),
    ('enormous_row_length.json.gz',
     repeat_gz('{"problem":{"nodes":{"intervals":[[0,1]],"costs":[[', '0,', 2000000, '0]],"usages":[[1]]},"edges":{"nodes":[],"costs":[]}}}'), 3,
     'strategy count mismatch at node 0: problem.nodes.costs[0] has 2000001 entries, problem.nodes.usages[0] has 1'),
    ('enormous_whitespace.json.gz', repeat_gz('', ' ', 10000000, ''), 3, 'the input is empty (no JSON document)'),
    ('enormous_horizon_reversed.json', rep('[110,150]', '[9223372036854775807,-9223372036854775808]'), 3,
     'problem.nodes.intervals[4]: lower end 9223372036854775807 exceeds upper end -9223372036854775808'),
    # --- gzip corruption
    ('gzip_magic_only.json.gz', b'\x1f\x8b', 3, 'gzip data is truncated'),
    ('gzip_bad_method.json.gz', GOOD_GZ[:2] + b'\x07' + GOOD_GZ[3:], 3, 'gzip data is corrupt'),
    ('gzip_bad_crc.json.gz', GOOD_GZ[:-8] + bytes([GOOD_GZ[-8] ^ 1]) + GOOD_GZ[-7:], 3, 'gzip data is corrupt: incorrect data check'),
    ('gzip_bad_length.json.gz', GOOD_GZ[:-4] + bytes([GOOD_GZ[-4] ^ 1]) + GOOD_GZ[-3:], 3, 'gzip data is corrupt: incorrect length check'),
    ('gzip_size_trailer_4gb.json.gz', GOOD_GZ[:-4] + b'\xff\xff\xff\xff', 3, 'gzip data is corrupt'),
    ('gzip_truncated.json.gz', GOOD_GZ[:len(GOOD_GZ) // 2], 3, 'gzip data is truncated'),
    ('gzip_garbage_deflate.json.gz', GOOD_GZ[:10] + b'\xff' * 40, 3, 'gzip data is corrupt'),
    ('gzip_trailing_garbage.json.gz', GOOD_GZ + b'trailing', 3, 'gzip data is corrupt'),
    ('gzip_empty_payload.json.gz', gz(b''), 3, 'the input is empty (no JSON document)'),
    ('gzip_invalid_json.json.gz', gz('{"problem" 5}'), 3, 'JSON syntax error at byte 11 of the decompressed JSON'),
    ('gzip_twice.json.gz', gz(GOOD_GZ), 3, 'JSON syntax error at byte 0 of the decompressed JSON'),
]


def main():
    names = set()
    for name, data, _, _ in CASES:
        assert name not in names, name
        names.add(name)
        if isinstance(data, str):
            data = data.encode('utf-8')
        with open(os.path.join(HERE, name), 'wb') as f:
            f.write(data)
    with open(os.path.join(HERE, 'expected.tsv'), 'w') as f:
        f.write('# file\texit_code\tmessage_substring (see README.md)\n')
        for name, _, code, msg in CASES:
            assert '\t' not in msg and '\n' not in msg
            f.write('%s\t%d\t%s\n' % (name, code, msg))


if __name__ == '__main__':
    main()
