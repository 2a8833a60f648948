/* gpuerr's site search: ranks catalogue entries for a pasted error message the way the engine's
   lookup does (query/lookup.cc): the same cleaning (query/clean.cc), the same code keys
   (query/identifiers.cc), the signatures as regular expressions, BM25 over words, and the same
   fusion, in which codes and signatures outrank words. It reads window.GPUERR_SEARCH, written by
   `gpuerr export` into search-index.js (site/search_index.h), and loads nothing else.
   Hand-written; no libraries. Also runs under Node.js for tests/site/search_quality.js. */
(function (root) {
  'use strict';

  // RE2's \s and \S are ASCII; JavaScript's also take Unicode spaces.
  var S = '[\\t\\n\\f\\r ]';
  var NS = '[^\\t\\n\\f\\r ]';

  // --- Cleaning: query/clean.cc ---------------------------------------------------------------

  var ANSI = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]/g;

  // A line that is a JSON object (a structured logger's record) becomes its strings, one per line.
  function collectStrings(value, out, depth) {
    if (typeof value === 'string') out.push(value);
    else if (value && typeof value === 'object' && depth < 8)  // as deep as the engine reads
      Object.keys(value).forEach(function (k) { collectStrings(value[k], out, depth + 1); });
  }

  // A journald record (journalctl -o json) as journalctl -o short-iso prints it, as the engine
  // does; null for other records.
  function journalLine(record) {
    function field(k) { return typeof record[k] === 'string' ? record[k] : ''; }
    var message = field('MESSAGE'), stamp = field('__REALTIME_TIMESTAMP');
    if (!message || !stamp || stamp.length > 18 || /[^0-9]/.test(stamp)) return null;
    var pad = function (n, w) { n = String(n); while (n.length < w) n = '0' + n; return n; };
    stamp = pad(stamp, 7);  // microseconds: whole seconds, then six digits
    var date = new Date(Number(stamp.slice(0, -6)) * 1000);
    if (isNaN(date.getTime())) return null;
    var time = pad(date.getUTCFullYear(), 4) + '-' + pad(date.getUTCMonth() + 1, 2) + '-' +
        pad(date.getUTCDate(), 2) + 'T' + pad(date.getUTCHours(), 2) + ':' +
        pad(date.getUTCMinutes(), 2) + ':' + pad(date.getUTCSeconds(), 2) + '.' +
        stamp.slice(-6) + 'Z';
    var program = field('SYSLOG_IDENTIFIER') || field('_COMM') || 'journal', pid = field('_PID');
    return time + ' ' + (field('_HOSTNAME') || 'localhost') + ' ' + program +
        (pid ? '[' + pid + ']' : '') + ': ' + message;
  }

  function unpackJsonRecords(text) {
    if (text.indexOf('{') < 0) return text;
    return text.split('\n').map(function (line) {
      var t = line.replace(/^[ \t]+/, '').replace(/[ \t\r]+$/, '');
      if (t.charAt(0) !== '{' || t.charAt(t.length - 1) !== '}') return line;
      var record;
      try { record = JSON.parse(t); } catch (e) { return line; }
      if (!record || typeof record !== 'object' || Array.isArray(record)) return line;
      var journal = journalLine(record);
      if (journal !== null) return journal;
      var strings = [];
      collectStrings(record, strings, 0);
      return strings.length ? strings.join('\n') : line;
    }).join('\n');
  }

  // Curly quotes, dashes, the ellipsis and Unicode spaces, as a copy through an editor, chat
  // client or web page leaves them, back to the ASCII the program printed.
  var TYPOGRAPHY = /[\u00a0\u2000-\u200a\u202f\u205f\u3000\u200b\u2060\ufeff\u2010-\u2014\u2212\u2018-\u201f\u2032\u2033\u2026]/g;

  // HTML's character references, as a page's source, an XML test report (JUnit) or a web tool
  // that escaped the text leaves them (in one pass: "&amp;lt;" becomes "&lt;").
  var ENTITIES = { '&quot;': '"', '&#34;': '"', '&#x22;': '"', '&apos;': "'", '&#39;': "'",
    '&#x27;': "'", '&lt;': '<', '&#60;': '<', '&gt;': '>', '&#62;': '>', '&amp;': '&',
    '&#38;': '&', '&nbsp;': ' ' };
  var ENTITY = /&(?:quot|apos|lt|gt|amp|nbsp|#34|#x22|#39|#x27|#60|#62|#38);/g;

  function foldTypography(text) {
    var unescaped = text.replace(ENTITY, function (e) { return ENTITIES[e]; });
    return unescaped.replace(TYPOGRAPHY, function (c) {
      if (/[\u200b\u2060\ufeff]/.test(c)) return '';
      if (/[\u2010-\u2014\u2212]/.test(c)) return '-';
      if (/[\u2018-\u201b\u2032]/.test(c)) return "'";
      if (/[\u201c-\u201f\u2033]/.test(c)) return '"';
      if (c === '\u2026') return '...';
      return ' ';
    });
  }

  function asPrinted(text) {
    var lines = foldTypography(unpackJsonRecords(String(text))).replace(ANSI, '').split('\n');
    for (var i = 0; i < lines.length; i++) {
      var line = lines[i];
      while (line.length && line.charAt(line.length - 1) === '\r') line = line.slice(0, -1);
      var cr = line.lastIndexOf('\r');
      if (cr >= 0) line = line.slice(cr + 1);
      lines[i] = line.replace(/\0/g, ' ');
    }
    return lines.join('\n');
  }

  // Lines are measured in UTF-8 bytes, as the engine measures them.
  function utf8Length(s) {
    var n = 0;
    for (var i = 0; i < s.length; i++) {
      var c = s.charCodeAt(i);
      n += c < 0x80 ? 1 : c < 0x800 ? 2 : c >= 0xd800 && c < 0xe000 ? 2 : 3;
    }
    return n;
  }

  var WRAPPED_WIDTH = 70;

  // A line's first word: a per-line prefix ("3:", "[rank0]:") that a wrapped continuation lacks.
  function firstWord(line) {
    var m = /^[^ \t]*/.exec(line);
    return m[0];
  }

  var WORD_WRAP_WIDTH = 80;  // clean.h's kWordWrapWidth
  function unwrapLongLines(text, glue) {  // glue: '' for a wrap mid-word, ' ' at a word's end
    glue = glue || '';
    var out = '';
    var start = 0;
    while (start < text.length) {
      var end = text.indexOf('\n', start);
      if (end < 0) end = text.length;
      var line = text.slice(start, end);
      out += line;
      if (end < text.length) {
        var nextEnd = text.indexOf('\n', end + 1);
        var next = text.slice(end + 1, nextEnd < 0 ? text.length : nextEnd);
        var prefix = firstWord(line);
        var wrapped = utf8Length(line) >= WRAPPED_WIDTH ||
            (glue !== '' && utf8Length(line) + 1 + utf8Length(firstWord(next)) > WORD_WRAP_WIDTH);
        if (!wrapped || (prefix && firstWord(next) === prefix)) out += '\n';
        else if (line.slice(-1) !== ' ' && next.charAt(0) !== ' ') out += glue;
      }
      start = end + 1;
    }
    return out;
  }

  var NOISE = [
    new RegExp('Traceback \\(most recent call last\\):|^[ \\t]*File "[^"\\n]*", line \\d+[^\\n]*(?:\\n[ \\t]{4,}[^\\n]*)?', 'gm'),
    new RegExp('^[^\\n]*\\bException raised from\\b[^\\n]*|^' + S + '*frame #\\d+:[^\\n]*|\\bterminate called after throwing an instance of \'[^\'\\n]*\'|\\bwhat\\(\\):', 'gm'),
    new RegExp('CUDA kernel errors might be asynchronously reported at some other API call,?' + S + '*so the stacktrace below might be incorrect\\.?', 'g'),
    new RegExp('For debugging consider passing CUDA_LAUNCH_BLOCKING=1\\.?|Compile with [^\\n]TORCH_USE_CUDA_DSA[^\\n] to enable device-side assertions\\.?', 'g'),
    new RegExp('^[ \\t]*compilation terminated\\.|^[^\\n]*\\bmake(?:\\[\\d+\\])?: \\*\\*\\*[^\\n]*|^[ \\t]*ninja: build stopped[^\\n]*|^[ \\t]*CMake Error at [^\\n]*\\(message\\):|^[ \\t]*In file included from[^\\n]*', 'gm'),
    new RegExp('^\\d{4}-\\d\\d-\\d\\dT' + NS + '+ (?:stdout|stderr) [FP] ', 'gm'),
    new RegExp('\\d{4}-\\d\\d-\\d\\d[T ]\\d\\d:\\d\\d:\\d\\d(?:[.,]\\d+)?(?:Z|[+-]\\d\\d:?\\d\\d)?', 'g'),
    new RegExp('^(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) +\\d+ \\d\\d:\\d\\d:\\d\\d ' + NS + '+ (?:[\\w.-]+\\[\\d+\\]: )?', 'gm'),
    new RegExp('\\[' + S + '*\\d+\\.\\d+\\]', 'g'),
    new RegExp('\\[(?:rank|default)?\\d+\\]:?|^' + S + '*\\d+: ', 'gm'),
    new RegExp('\\[\\d+,\\d+\\]<std(?:out|err|diag)>:', 'g'),
    new RegExp('\\[pod/[^\\]\\t\\n\\f\\r ]*\\]', 'g'),
    new RegExp('\\((?:\\w+ )?pid=\\d+(?:, ip=[\\d.]+)?\\)', 'g'),
    new RegExp('^[IWEF]\\d{4} \\d\\d:\\d\\d:\\d\\d\\.\\d+ +\\d+ [\\w.-]+:\\d+\\] ', 'gm'),
    new RegExp('^[\\w.-]+[-_]\\d+ +\\| ', 'gm'),
    new RegExp('\\b(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|0x[0-9a-f]+|[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\\.[0-9a-f])\\b', 'gi'),
    new RegExp('(?:[\\w.~-]*/[\\w.+@-]+){2,}/?', 'g'),
    new RegExp('\\b\\d+(?:\\.\\d+)?\\b', 'g'),
  ];

  // clean.cc's drop_info_lines: a log's lines at an informational level are left out of the
  // words when another line is at an error or warning level.
  var LEVEL_WITHIN = 80;
  var INFO_LINE = new RegExp(
      '\\blevel=(?:info|debug|trace)\\b|\\[(?:INFO|DEBUG)\\]|\\b(?:INFO|DEBUG)\\b[:\\] ]|' +
      '^[ID]\\d{4} \\d\\d:\\d\\d');
  var ERROR_LINE = new RegExp(
      '\\blevel=(?:error|fatal|panic|warn|warning)\\b|\\[(?:ERROR|FATAL|CRITICAL|WARN|WARNING)\\]|' +
      '\\b(?:ERROR|FATAL|CRITICAL|WARN|WARNING)\\b|^[EFW]\\d{4} \\d\\d:\\d\\d');

  function atLevel(line, level) { return level.test(line.slice(0, LEVEL_WITHIN)); }

  function isContext(l) {
    return atLevel(l, INFO_LINE) && !atLevel(l, ERROR_LINE) && l.indexOf('NCCL INFO') < 0;
  }

  function dropInfoLines(s) {
    var lines = s.split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    if (!lines.some(function (l) { return atLevel(l, ERROR_LINE); })) return s;
    if (!lines.some(isContext)) return s;
    return lines.filter(function (l) { return !isContext(l); }).join('\n') + '\n';
  }

  function searchText(text) {
    var s = dropInfoLines(asPrinted(text));
    for (var i = 0; i < NOISE.length; i++) s = s.replace(NOISE[i], ' ');
    return s;
  }

  // --- Words: site/words.cc -------------------------------------------------------------------

  function searchWords(text) {
    var out = [];
    var re = /[A-Za-z0-9_]+/g;
    var m;
    while ((m = re.exec(text))) {
      var w = m[0];
      if (w.length <= 64 && !/^[0-9]/.test(w)) out.push(w.toLowerCase());
    }
    return out;
  }

  function distinctWords(text) {
    var seen = Object.create(null);
    (text.match(/[A-Za-z]+/g) || []).forEach(function (w) { seen[w.toLowerCase()] = true; });
    return Object.keys(seen).length;
  }

  // --- Code keys: query/identifiers.cc --------------------------------------------------------

  function rx(source, flags) {
    return new RegExp(source.replace(/\\s/g, S), 'g' + (flags || ''));
  }

  // [family ('' when the first group names it), pattern whose last group is the number]
  var NUMBER_CONTEXTS = [
    ['xid', rx('\\bxid\\b[ \\t]*(?:\\(pci:[^)]*\\))?[ \\t]*[:=]?[ \\t]*(\\d+)', 'i')],
    ['nccl', rx('\\bnccl[ \\t]+(?:error|failure)[ \\t]*[:=#]?[ \\t]*\\(?(\\d+)\\b', 'i')],
    ['nccl', rx('\\bncclSuccess[ \\t]*\\((\\d+)[ \\t]*vs\\.?[ \\t]*0\\)')],
    ['nccl', rx('\\bNCCL INFO [\\w/.]+:\\d+ -> (\\d+)\\b')],
    ['cuda', rx('\\bcuda(?:[ \\t]+runtime)?[ \\t]*error(?:_t)?(?:[ \\t]+code)?[ \\t]*[:=#]?[ \\t]*\\(?(\\d+)\\b', 'i')],
    ['cuda', rx('(?:^|[^\\w/.-])cuda[^\\n]*?\\berror(?:[ \\t]+code)?[ \\t]*[:=#]?[ \\t]*\\(?(\\d+)\\)?', 'i')],
    ['cuda', rx('\\bcudaSuccess[ \\t]*\\((\\d+)[ \\t]*vs\\.?[ \\t]*0\\)', 'i')],
    ['cuda', rx('\\bReturn value (\\d+) from \'?cuda[A-Z]')],
    ['cu', rx('\\b(?:curesult|cuda[ \\t]+driver[ \\t]+error)[ \\t]*[:=#]?[ \\t]*\\(?(\\d+)\\b', 'i')],
    ['cu', rx('\\[(\\d+)\\][ \\t]*Call to cu[A-Z]')],
    ['cu', rx('\\bcu[A-Z]\\w*(?:\\(\\))?[ \\t]+(?:failed with|returns|returned) (?:error[ \\t]+code|error|code)[ \\t]*:?[ \\t]*(\\d+)\\b')],
    ['cu', rx('\\bfailed call to cu[A-Z]\\w*:[^\\n(]{0,40}\\((\\d+)\\)')],
    ['cu', rx('\\bcall to cu[A-Z]\\w*[ \\t]+returned error[ \\t]+(\\d+)\\b')],
    ['cu', rx('\\bCudaAPIError: \\[(\\d+)\\]')],
    ['cu', rx('\\b(?:cuInit err|nvcuda init failure):[ \\t]*(\\d+)\\b', 'i')],
    ['cu', rx('\\bCuError\\(code[ \\t]*=[ \\t]*(\\d+)', 'i')],
    ['cu', rx('\\bCUresult\\b[^\\n]{0,40}?\\bresult[ \\t]*=[ \\t]*(\\d+)', 'i')],
    ['', rx('\\b(cublas|cudnn|cufft|curand|cusolver|cusparse)[^\\n]{0,80}?\\b(?:error|failure|status)\\b(?:[ \\t]+at[ \\t]+[^\\s:]+:\\d+)?(?:[ \\t]*:[ \\t]*[a-z ]{0,30}?)?[ \\t]*[:=]?[ \\t]*[(\\[]?[ \\t]*(?:code[ \\t]*=[ \\t]*)?(\\d+)\\b', 'i')],
    ['cublas', rx('\\bkernel execution error\\.[ \\t]*\\([^)\\n]*\\berror:[ \\t]*(\\d+)\\)', 'i')],
    ['cufft', rx('\\bcufft\\b[^\\n]{0,40}?\\bplan[ \\t]*:[ \\t]*(\\d+)', 'i')],
    ['', rx('\\b(cublas|cudnn|cufft|curand|cusolver|cusparse)_STATUS_SUCCESS[ \\t]*\\((\\d+)[ \\t]*vs\\.?[ \\t]*0\\)', 'i')],
  ];

  function looksLikeErrorName(word) {
    if (word.length < 6) return false;
    if (word.indexOf('_') >= 0) return true;
    for (var i = 1; i < word.length; i++)
      if (/[A-Z]/.test(word[i]) && /[a-z]/.test(word[i - 1])) return true;
    return false;
  }

  function snakeKey(word) {
    if (word.indexOf('_') >= 0) return '';
    var out = '';
    for (var i = 0; i < word.length; i++) {
      if (i && /[A-Z]/.test(word[i]) && /[a-z]/.test(word[i - 1])) out += '_';
      out += word[i].toLowerCase();
    }
    return out;
  }

  function asciiLower(s) {
    return s.replace(/[A-Z]+/g, function (m) { return m.toLowerCase(); });
  }

  function codeKeys(text) {
    var keys = [];
    function add(key) { if (keys.indexOf(key) < 0) keys.push(key); }
    var words = /[A-Za-z0-9_]+/g;
    var m;
    while ((m = words.exec(text))) {
      var word = m[0];
      if (!/^[A-Za-z]/.test(word) || !looksLikeErrorName(word)) continue;
      add(asciiLower(word));
      var snake = snakeKey(word);
      if (!snake) continue;
      add(snake);
      if (snake.indexOf('error_') === 0) add('cuda_' + snake);
    }
    // identifiers.cc's add_driver_phrases: "Out of memory in cuStreamCreate(" -> cuda_error_out_of_memory
    if (text.indexOf(' cu') >= 0 || text.indexOf(' CUDA queue ') >= 0) {
      [/(?:^|[^A-Za-z _])[ \t]*([A-Za-z]+(?:[ _][A-Za-z]+){0,5}) in (?:cu[A-Z]\w*\(|CUDA queue )/gm,
       /\bat cu[A-Z]\w*: ([A-Za-z]+(?:[ _][A-Za-z]+){0,5})[ \t]*(?:$|[^A-Za-z _])/gm].forEach(function (re) {
        while ((m = re.exec(text))) add('cuda_error_' + asciiLower(m[1]).replace(/ /g, '_'));
      });
    }
    for (var i = 0; i < NUMBER_CONTEXTS.length; i++) {
      var re = NUMBER_CONTEXTS[i][1];
      re.lastIndex = 0;
      while ((m = re.exec(text))) {
        var family = NUMBER_CONTEXTS[i][0] || m[1];
        add(asciiLower(family) + ':' + String(parseInt(m[m.length - 1].slice(0, 9), 10)));
      }
    }
    return keys;
  }

  // --- Full text: Store::search (query/store.cc), BM25 as Xapian computes it ------------------

  var MAX_QUERY_TERMS = 64;
  // store.cc's kGenericErrorWords: they say that something failed, not what, so a match on them
  // adds nothing to what an entry's matched words say (lookup's trust in full text)
  var GENERIC_ERROR_WORDS = {};
  ['error', 'errors', 'fatal', 'failed', 'failure', 'fail', 'no', 'not', 'such', 'file',
   'directory', 'found', 'cannot', 'could', 'unable', 'include', 'invalid', 'warning', 'exception',
   'terminated', 'compilation', 'aborted', 'abort', 'exit', 'status', 'code', 'returned', 'line',
   'please', 'check', 'see'].forEach(function (w) { GENERIC_ERROR_WORDS[w] = true; });
  var K1 = 1, B = 0.5, K3 = 1, MIN_NORMLEN = 0.5;

  function prepared(index) {
    if (index._prepared) return index._prepared;
    var total = 0;
    for (var i = 0; i < index.lengths.length; i++) total += index.lengths[i];
    var stop = {};
    for (var j = 0; j < index.stop.length; j++) stop[index.stop[j]] = true;
    index._prepared = {
      avglen: total / Math.max(1, index.lengths.length),
      stop: stop,
      regexes: new Array(index.signatures.length),
    };
    return index._prepared;
  }

  function postings(index, term) {
    return Object.prototype.hasOwnProperty.call(index.terms, term) ? index.terms[term] : null;
  }

  // Hits over the entries whose kind passes `wanted`: [{entry, weight, percent}], best first.
  function search(index, text, wanted, limit) {
    var p = prepared(index);
    var wqf = {};
    var all = 0;
    searchWords(text).forEach(function (w) {
      if (p.stop[w]) return;
      if (!wqf[w]) { wqf[w] = 0; all++; }
      wqf[w]++;
    });
    var known = Object.keys(wqf).filter(function (t) { return postings(index, t); });
    if (!known.length) return [];
    var knownShare = known.length / all;
    var df = function (t) { return postings(index, t).length / 2; };
    known.sort(function (a, b) { return df(a) - df(b) || (a < b ? -1 : a > b ? 1 : 0); });
    known = known.slice(0, MAX_QUERY_TERMS);
    var n = index.lengths.length;
    var weight = {}, matched = {}, information = {};
    known.forEach(function (t) {
      var list = postings(index, t);
      var tw = (n - list.length / 2 + 0.5) / (list.length / 2 + 0.5);
      if (tw < 2) tw = tw * 0.5 + 1;
      var termWeight = Math.log(tw) * (K3 + 1) * wqf[t] / (K3 + wqf[t]);
      var idf = Math.log(n / (list.length / 2));
      for (var i = 0; i < list.length; i += 2) {
        var e = list[i], wdf = list[i + 1];
        if (!wanted(index.entries[e])) continue;
        var normlen = Math.max(index.lengths[e] / p.avglen, MIN_NORMLEN);
        var k = K1 * ((1 - B) + B * normlen);
        weight[e] = (weight[e] || 0) + termWeight * (K1 + 1) * wdf / (k + wdf);
        matched[e] = (matched[e] || 0) + 1;
        if (!GENERIC_ERROR_WORDS[t]) information[e] = (information[e] || 0) + idf;
      }
    });
    var hits = Object.keys(weight).map(function (e) {
      return { entry: Number(e), weight: weight[e], matched: matched[e], information: information[e] };
    });
    hits.sort(function (a, b) { return b.weight - a.weight || a.entry - b.entry; });
    hits = hits.slice(0, limit);
    if (!hits.length) return hits;
    // Xapian's percentage: the share of query terms the best hit matched, scaled by weight.
    var scale = hits[0].matched / known.length / hits[0].weight;
    hits.forEach(function (h) {
      h.percent = Math.min(100, Math.floor(h.weight * scale * 100 + 1e-9)) / 100 * knownShare;
    });
    return hits;
  }

  // --- Fusion: query/lookup.cc ----------------------------------------------------------------

  var TEXT_CANDIDATES = 20;
  var LINES_SEARCHED = 12, WORDS_PER_LINE_SEARCHED = 6, BEST_LINE_DISCOUNT = 0.9;
  var LINES_WORTH_SEARCHING = 0.4;
  var INFORMATION_FOR_FULL_TRUST = 14;
  var LETTERS_FOR_FULL_SPECIFICITY = 60;
  var ECHO_PENALTY = 4.5;
  var REPORT_BONUS = 9;  // a tool's report of a fault ranks above the errors it explains
  var CONFIDENT = 0.5;
  var CODE_AND_SIGNATURE = 0.98, SIGNATURE_ONLY = 0.97, CODE_ONLY = 0.93, CONTESTED = 0.9;
  var TEXT_ONLY_MAX = 0.65;
  var TEXT_OFF_TOPIC_MAX = 0.45;  // full text alone, in a text that names nothing of the GPU stack
  // lookup.cc's names_gpu_stack
  var GPU_STACK = new RegExp(
      'nvidia|cuda|gpu|nccl|cudnn|cublas|cufft|curand|cusolver|cusparse|cutlass|nvml|' +
      'nvrm|nvlink|nvswitch|nvcc|nvrtc|nvjpeg|nvshmem|nvjitlink|ptxas|\\bptx\\b|\\bxid|' +
      '\\bsm_?\\d\\d|dcgm|\\bmig\\b|torch|tensorflow|\\bjax|\\bxla|triton|tensorrt|cupy|numba|' +
      'vram|slurm|\\bgres\\b|infiniband|mlx5|\\bibv|\\bucx|gloo|\\bc10d\\b|rdzv|rendezvous', 'i');

  function confidence(e) {
    if (e.code && e.signature >= 0) return CODE_AND_SIGNATURE;
    if (e.signature >= 0) return SIGNATURE_ONLY;
    if (e.code) return CODE_ONLY;
    var trust = Math.min(1, e.information / INFORMATION_FOR_FULL_TRUST);
    var raw = TEXT_ONLY_MAX * e.textScore * trust;
    if (raw < CONFIDENT) return raw * (raw / CONFIDENT) * (raw / CONFIDENT);
    return raw;
  }

  function signatureRegex(index, i) {
    var p = prepared(index);
    if (p.regexes[i] === undefined) {
      try {
        p.regexes[i] = new RegExp(index.signatures[i][1], index.signatures[i][2]);
      } catch (err) {
        p.regexes[i] = null;  // a pattern this engine cannot compile never matches
      }
    }
    return p.regexes[i];
  }

  // Positions in index.signatures of the signatures found in `text`, ascending. As the engine's
  // SignatureSet, a signature is only tried when its anchor word is in the text.
  function signatureHits(index, text) {
    var lower = asciiLower(text);
    var out = [];
    index.signatures.forEach(function (sig, i) {
      if (sig[3] && lower.indexOf(sig[3]) < 0) return;
      var re = signatureRegex(index, i);
      if (re && re.test(text)) out.push(i);
    });
    return out;
  }

  function isError(entry) { return entry.kind === 'error'; }

  /* A warning that quotes a status on its way (PyTorch's "UserWarning: Plan failed with a
     cudnnException: ... CUDNN_STATUS_NOT_SUPPORTED") answers for itself: the status's entry loses
     its code and signature when every line naming it is a line a warning's signature matches,
     printed as a warning or at least not as an error (lookup.cc's drop_evidence_inside_warnings). */
  function dropEvidenceInsideWarnings(index, shown, evidence) {
    var warnings = {}, others = {}, counts = [0, 0];
    Object.keys(evidence).forEach(function (i) {
      var e = evidence[i];
      if (!e.code && e.signature < 0) return;
      if (index.entries[i].role === 'warning') { warnings[i] = true; counts[0]++; }
      else { others[i] = true; counts[1]++; }
    });
    if (!counts[0] || !counts[1]) return;
    var inside = {}, outside = {};
    shown.split('\n').forEach(function (line) {
      var lower = line.toLowerCase();
      var saysWarning = lower.indexOf('warn') >= 0 || lower.indexOf('error') < 0;
      var named = {}, warning = false;
      signatureHits(index, line).forEach(function (s) {
        var id = index.signatures[s][0];
        named[id] = true;
        if (saysWarning && warnings[id]) warning = true;
      });
      codeKeys(line).forEach(function (key) {
        var ids = Object.prototype.hasOwnProperty.call(index.codes, key) ? index.codes[key] : [];
        ids.forEach(function (id) { named[id] = true; });
      });
      Object.keys(named).forEach(function (id) {
        if (others[id]) (warning ? inside : outside)[id] = true;
      });
    });
    Object.keys(inside).forEach(function (id) {
      if (outside[id]) return;
      var e = evidence[id];
      e.code = ''; e.signature = -1; e.letters = 0;
    });
  }

  /* The entries that might explain `message`, best first:
     [{entry, id, title, url, first, score, confidence, code, signature, textScore}];
     `signature` is the position in index.signatures of the most specific one that matched, or -1.
     An empty list means the catalogue has nothing to say. */
  function lookup(index, message) {
    var evidence = {};
    function ev(e) {
      return evidence[e] || (evidence[e] = {
        code: '', signature: -1, letters: 0, textScore: 0, textWeight: 0, information: 0,
      });
    }
    var shown = asPrinted(message);
    var readExact = function (readings) {
      readings.forEach(function (text) {
        codeKeys(text).forEach(function (key) {
          var ids = Object.prototype.hasOwnProperty.call(index.codes, key) ? index.codes[key] : [];
          ids.forEach(function (e) { if (!ev(e).code) ev(e).code = key; });
        });
      });
      readings.forEach(function (text) {
        signatureHits(index, text).forEach(function (i) {
          var sig = index.signatures[i];
          var e = ev(sig[0]);
          if (e.signature < 0 || sig[4] > e.letters) { e.signature = i; e.letters = sig[4]; }
        });
      });
    };
    var readings = [shown];
    var joined = unwrapLongLines(shown, '');
    if (joined !== shown) readings.push(joined);
    readExact(readings);
    // lines rejoined at a word's end only when nothing else named an entry (lookup.cc)
    if (!Object.keys(evidence).length) {
      var spaced = unwrapLongLines(shown, ' ');
      if (spaced !== shown) readExact([spaced]);
    }
    dropEvidenceInsideWarnings(index, shown, evidence);

    var words = searchText(shown);
    var hits = search(index, words, isError, TEXT_CANDIDATES);
    hits.forEach(function (h) {
      var e = ev(h.entry);
      e.textScore = h.percent;
      e.textWeight = h.weight / hits[0].weight;
      e.information = h.information;
    });
    // A paste of several lines that names no entry by a code or signature is also searched line
    // by line, its best line counting for a little less (lookup.cc's search_lines).
    var exact = Object.keys(evidence).some(function (i) {
      return evidence[i].code || evidence[i].signature >= 0;
    });
    if (!exact && words.indexOf('\n') >= 0 && hits.length && hits[0].percent >= LINES_WORTH_SEARCHING) {
      var seenLines = Object.create(null), searched = 0;
      words.split('\n').forEach(function (line) {
        if (searched >= LINES_SEARCHED || seenLines[line] ||
            distinctWords(line) < WORDS_PER_LINE_SEARCHED) return;
        seenLines[line] = true;
        searched++;
        search(index, line, isError, TEXT_CANDIDATES).forEach(function (h) {
          var e = ev(h.entry);
          e.textScore = Math.max(e.textScore, BEST_LINE_DISCOUNT * h.percent);
        });
      });
    }

    var isEcho = function (i) {  // an echo of a cause, or a warning printed on the way to one
      var role = index.entries[i].role;
      return role === 'consequence' || role === 'warning';
    };
    var ids = Object.keys(evidence).map(Number).sort(function (a, b) { return a - b; });
    var exactCause = ids.some(function (i) {
      return (evidence[i].code || evidence[i].signature >= 0) && !isEcho(i);
    });
    var out = ids.map(function (i) {
      var e = evidence[i];
      var specificity = Math.min(1, e.letters / LETTERS_FOR_FULL_SPECIFICITY);
      var score = 4 * (e.code ? 1 : 0) + 3 * (e.signature >= 0 ? 1 : 0) + 1.5 * specificity +
                  2 * e.textScore + e.textWeight;
      if (exactCause && isEcho(i) && (e.code || e.signature >= 0)) score -= ECHO_PENALTY;
      var entry = index.entries[i];
      if (entry.role === 'report' && (e.code || e.signature >= 0)) score += REPORT_BONUS;
      return {
        entry: i, id: entry.id, title: entry.title, url: entry.url, first: entry.first,
        score: score, confidence: confidence(e),
        code: e.code, signature: e.signature, textScore: e.textScore,
      };
    });
    if (!GPU_STACK.test(shown))
      out.forEach(function (m) {
        if (!m.code && m.signature < 0) m.confidence = Math.min(m.confidence, TEXT_OFF_TOPIC_MAX);
      });
    out.sort(function (a, b) { return b.score - a.score; });  // stable: ties stay in id order
    var kind = function (m) { return 2 * (m.code ? 1 : 0) + (m.signature >= 0 ? 1 : 0); };
    out.forEach(function (m) {
      if (!kind(m)) return;
      for (var j = 0; j < out.length; j++)
        if (out[j] !== m && kind(out[j]) === kind(m)) m.confidence = Math.min(m.confidence, CONTESTED);
    });
    return out;
  }

  /* Variables and questions whose words match `message` (they have no codes or signatures):
     [{entry, id, title, url, percent}], best first, at most `limit`. */
  function related(index, message, limit) {
    return search(index, searchText(message), function (e) { return !isError(e); }, limit)
      .map(function (h) {
        var entry = index.entries[h.entry];
        return { entry: h.entry, id: entry.id, title: entry.title, url: entry.url, percent: h.percent };
      });
  }

  var api = {
    asPrinted: asPrinted, unwrapLongLines: unwrapLongLines, searchText: searchText,
    searchWords: searchWords, codeKeys: codeKeys, signatureHits: signatureHits, search: search,
    lookup: lookup,
    related: related, CONFIDENT: CONFIDENT,
  };
  root.GpuerrSearch = api;

  // --- The page: index.html's form, results as text nodes only (nothing pasted is markup) -----

  if (typeof document === 'undefined' || !document.getElementById('search-form')) return;

  var SHOWN = 5, WEAK_SHOWN = 3;
  var RELATED_SHOWN_FROM = 0.3;  // share of the words a variable or question must match

  function why(m) {
    if (m.code && m.signature >= 0) return 'code ' + m.code + ' and the message shape';
    if (m.code) return 'code ' + m.code;
    if (m.signature >= 0) return 'the message shape';
    return Math.round(m.textScore * 100) + '% of the words';
  }

  function item(list, m, weak) {
    var li = document.createElement('li');
    if (weak) li.className = 'weak';
    var a = document.createElement('a');
    a.className = 'title';
    a.href = m.url;
    a.textContent = m.title;
    li.appendChild(a);
    var reason = document.createElement('span');
    reason.className = 'why';
    reason.textContent = (weak ? 'weak candidate: ' : 'matched by ') + why(m) +
      ' · confidence ' + Math.round(m.confidence * 100) + '%';
    li.appendChild(reason);
    if (m.first) {
      var first = document.createElement('span');
      first.className = 'first';
      first.textContent = 'First: ' + m.first.replace(/`/g, '');
      li.appendChild(first);
    }
    list.appendChild(li);
  }

  function render(index, text) {
    var list = document.getElementById('results');
    var status = document.getElementById('search-status');
    while (list.firstChild) list.removeChild(list.firstChild);
    if (!text.trim()) {
      status.textContent = '';
      document.getElementById('see-also').hidden = true;
      return;
    }
    var matches = lookup(index, text);
    var confident = matches.filter(function (m) { return m.confidence >= CONFIDENT; }).slice(0, SHOWN);
    if (confident.length) {
      status.textContent = confident.length + (confident.length === 1 ? ' entry explains' : ' entries explain') +
        ' this message, best first.';
      confident.forEach(function (m) { item(list, m, false); });
    } else {
      var weak = matches.slice(0, WEAK_SHOWN);
      status.textContent = weak.length ? 'No confident match. The closest entries:' : 'No match in the catalogue.';
      weak.forEach(function (m) { item(list, m, true); });
    }
    var seeAlso = document.getElementById('see-also');
    var seeList = document.getElementById('see-also-list');
    while (seeList.firstChild) seeList.removeChild(seeList.firstChild);
    related(index, text, 3).forEach(function (r) {
      if (r.percent < RELATED_SHOWN_FROM) return;
      var li = document.createElement('li');
      var a = document.createElement('a');
      a.href = r.url;
      a.textContent = r.title;
      li.appendChild(a);
      seeList.appendChild(li);
    });
    seeAlso.hidden = !seeList.firstChild;
  }

  function start() {
    var index = root.GPUERR_SEARCH;
    var form = document.getElementById('search-form');
    var box = document.getElementById('q');
    if (!index) {
      document.getElementById('search-status').textContent = 'The search index (search-index.js) is missing.';
      return;
    }
    var timer = null;
    var run = function () {
      clearTimeout(timer);
      render(index, box.value);
    };
    box.addEventListener('input', function () {
      clearTimeout(timer);
      timer = setTimeout(run, 150);
    });
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      run();
      try {
        history.replaceState(null, '', '?q=' + encodeURIComponent(box.value));
      } catch (err) {
        // Some browsers refuse to change a file:// address; the results are shown all the same.
      }
    });
    var q = null;
    try { q = new URLSearchParams(location.search).get('q'); } catch (err) { q = null; }
    if (q) {
      box.value = q;
      run();
    }
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})(typeof window !== 'undefined' ? window : globalThis);
