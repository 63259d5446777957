/* The question search of `kbg explain` in plain JavaScript, for the offline site: a port of
 * kbgrules/explain/text.py and concepts.py (reading a question), rank.py (the first stage, BM25
 * and bonuses) and rerank.py (the second stage: features of each candidate, scored by the fitted
 * model), run on the parsed rules_data/explain-index.json with rules_data/explain-model.json as its
 * `model` (as the site's search-index.js ships it; without one, Python's Model.default(): the first
 * stage's order).
 * KbgSearch.search(index, query, {game, limit}) returns what Python's search returns ({hits, lang,
 * game, confident, confidence, coverage, ...}; each hit's score is its probability and `shares`
 * what each feature gave), or {error} for a refused query. tests/test_site_search.py checks it
 * agrees with Python on every test question. Sums are taken in Python's order: the same floats,
 * but for the last bit of Math.log and Math.exp.
 *
 * Unicode: Python's \w is [\p{L}\p{N}_] here, \b a look-around on it, str.isalpha \p{L},
 * str.isspace the WS class, str.casefold toLowerCase plus ß -> ss (a few Greek, Cyrillic and
 * Cherokee letters fold otherwise; no search word holds them). JavaScript may know a newer Unicode
 * than Python (14.0 in 3.11): characters added since can differ (U+1CCF0-9 fold to digits here).
 */
var KbgSearch = (function () {
  "use strict";

  const CONCEPT = "~";
  const WEAK_SIGN = 0.25;
  const K1 = 1.2, B = 0.75;
  const MAX_QUERY = 1000, MAX_FUZZY = 12;
  const CONCEPT_WEIGHT = 1.0, WORD_WEIGHT = 1.0;
  // by an entry's role (kbgrules/core/kinds.py), as the index's game_info gives each game's kinds; others 1.0
  const ROLE_PRIOR = { faq: 1.15, rule: 1.1, "named-piece": 1.05 };
  const PIECE_ROLES = ["named-piece", "piece"];
  const LOG_PRIOR = 0.5, SCOPE_PRIOR = 0.6, LEAN_PRIOR = 1.2, BOTH_GAMES = 0.4;
  const NAME_BONUS = 8.0, RELATED_NAME_BONUS = 6.0;
  const EXACT_PHRASE_BONUS = 12.0, PARTIAL_PHRASE_BONUS = 3.0;
  const NO_ANSWER_COVERAGE = 0.2, UNKNOWN_WEIGHT = 0.5, STORY_WEIGHT = 0.25;

  const STOP = {
    en: `a an the i i'm im my me we us our you your he she his her they them is are am be been can could
        do does did to in into of on at for with what whats how when where who which if it its this that
        there then than or and not no so as by from have has had get gets got happen happens happened
        rule rules about will would should must may might just any some all one still also only
        anyone someone question please thanks hi hello s t don doesn didn isn aren wasn but out up
        over then still also each every other more most very much many same even own too again once
        here there while because since though although yet whether either neither both during go goes
        going went`,
    fr: `le la les l de des du d un une et est en dans que qui je j on peut il elle au aux pour sur ce
        se ne pas plus si ou mais avec son sa ses mon ma mes vous nous tu te me qu y a c est-ce
        faut-il peut-on doit comment quoi bonjour merci n m s sont être avoir cette ces cet leur
        leurs tout tous toute toutes aussi très bien alors donc car ici jeu jouer par pour`,
    vi: `có không là và của được khi thì cho một những các này ở với mình bạn tôi nếu thì sao
        gì nào ai làm thế vậy hay hoặc đã đang sẽ phải cần nhé ạ ơi`,
    de: `der die das den dem des ein eine einen einem einer und ist in im zu zum zur von mit auf für
        an am als auch aber oder wenn wann wie was wer wo ich du er sie es wir ihr man kann darf
        muss soll nicht kein keine noch nur bei nach aus so dann dass ob hat haben sein bin bist
        dies diese dieser dieses diesem jeder jede jedes jedem jeden sich mir mich dir dich ihm ihn uns
        euch wird werden wurde war waren einmal immer schon sehr mehr ganz also dabei dafür damit
        dann denn doch hier dort weil sondern sowie zwischen gibt geht spiel spielen`,
    es: `el la los las lo un una unos unas y o de del al en que es se por para con no sí si su sus
        mi mis tu yo me te le les nos como cuando cuál qué quién puede puedo hay hola gracias está
        son ser pero más muy ya también este esta estos estas ese esa eso cada todo todos toda todas
        nuestro nuestra vuestro otro otra otros hace hacer tiene tienen tener juego jugar`,
  };
  const NUMBERS = {  // 0 to 12; "a/b": both are that number, "-" none (Korean ones are not read)
    en: "zero one two three four five six seven eight nine ten eleven twelve",
    fr: "zéro un/une deux trois quatre cinq six sept huit neuf dix onze douze",
    de: "null eins/ein/eine zwei drei vier fünf sechs sieben acht neun zehn elf zwölf",
    es: "cero uno/una/un dos tres cuatro cinco seis siete ocho nueve diez - doce",
    vi: "- một hai ba bốn năm sáu bảy tám chín mười",
  };
  // number words that are other words too: digits only in a text of their language (Vietnamese: all)
  const HOMOGRAPHS = { en: "ten", fr: "un une sept", de: "null ein eine elf", es: "uno una un dos tres" };
  const TYPICAL = {
    en: `why whose whom cannot let lets after before during until without against between through
        onto upon player players die dice see seen saw case`,
    fr: `où quand même comme puis peux pouvez dois faut combien quel quelle quels quelles pourquoi
        avant après chaque lorsque lorsqu quelqu ça cela celui celle ceux été fait font ont suis à là
        déjà encore seulement toujours jamais rien sans sous vers contre pendant depuis chez avez
        avons moi joueur joueurs côté côtés celles tôt chose choses`,
    de: `warum wieso welche welcher welches welchen wieviel viele dürfen müssen können kannst könnte
        würde sind habe hast ja nein nichts etwas jetzt wieder vor unter über gegen ohne durch um bis
        seine seinen seiner ihre ihren ihrem andere anderen anderer beim vom ins mein meine deine
        spieler ende manche rolle`,
    es: `a dónde cuándo cómo cuánto cuánta cuántos cuántas porque puedes pueden podemos debo debe
        deben tengo tienes hasta desde sobre entre sin durante antes después cuáles quiénes algo nada
        siempre nunca vez veces ahora mismo misma mucho muchos poco jugador jugadores tras trae partir sea`,
    vi: `đâu đặt người chơi lượt bài điểm máu nhiều bao nhiêu rồi trước sau trong ngoài muốn thể
        chỉ cũng mỗi tất cả bị ra vào lên xuống lại từ đến như nên thẻ xúc xắc lúc giữ đổ mua rút`,
  };
  const KO_PARTICLES = ["에서는", "에서", "으로", "에게", "까지", "부터", "보다", "처럼", "은", "는", "이", "가", "을",
    "를", "에", "의", "도", "로", "와", "과", "만", "나", "랑"];
  let viOwn = "ăđơưãõĩũìòýỳ";
  for (let c = 0x1ea0; c < 0x1efa; c++) viOwn += String.fromCharCode(c);
  const VI_LETTERS = new Set(viOwn);
  const LETTER_LANGS = new Map();
  for (const [cs, langs] of [["àâèêôù", ["fr", "vi"]], ["áíóú", ["es", "vi"]], ["é", ["fr", "es", "vi"]],
    ["çœæîïëûÿ", ["fr"]], ["äöüß", ["de"]], ["ñ", ["es"]]]) {
    for (const c of cs) LETTER_LANGS.set(c, langs);
  }
  const STRONG_LETTER = 2.0, LETTER = 1.0, SHARED_LETTER = 0.5;

  // ------------------------------------------------------------------ characters and words

  const WS = "\\t-\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
  const W = "\\p{L}\\p{N}_";
  const STRIP = new RegExp(`^[${WS}]+|[${WS}]+$`, "gu");
  const WORD = /[0-9a-z]+|[\uac00-\ud7a3]+/g;
  const RAW_WORD = /[\p{L}\p{N}]+/gu;
  const GRID = new RegExp(`(\\p{Nd})[${WS}]*[x×*][${WS}]*(\\p{Nd})`, "gu");
  const DIGIT_PLURAL = new RegExp(`(?<![${W}])([0-9])(?:s|'s|er)(?![${W}])`, "gu");
  const DICE_RUN = new RegExp(`(?<![${W}])([1-6])(?:[${WS}]*[-,/+x ][${WS}]*\\1){2,}(?![${W}])`
    + `|(?<![${W}])(111|222|333)(?![${W}])`, "gu");
  const COUNT_FACE = new RegExp(`(?<![${W}])([3-8])[${WS}]*(?:x[${WS}]*)?(?:of[${WS}]+|de[${WS}]+|des[${WS}]+)?`
    + `([1-3])(?:s|'s|er)?(?![${W}])`, "gu");
  const FRENCH_ELISION = new RegExp(`(?<![${W}])(?:qu|l|d|j|n|s|c)['’][${W}]`, "u");
  const NUMBERED = new RegExp(`^(?:(\\p{L}+)[${WS}]*)?#?[${WS}]*(\\p{Nd}{1,3})$`, "u");
  const CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ufffd\udc80-\udcff]/u;
  const ASCII = /^[\x00-\x7f]*$/;

  const isHangul = (w) => w[0] >= "\uac00" && w[0] <= "\ud7a3";
  const isAlpha = (w) => /^\p{L}+$/u.test(w);
  const casefold = (s) => s.toLowerCase().replace(/ß/g, "ss");
  const matchAll = (re, s) => s.match(re) || [];
  const unique = (xs) => [...new Set(xs)];
  const own = (obj, key) => (obj && Object.prototype.hasOwnProperty.call(obj, key) ? obj[key] : undefined);

  // unicodedata.combining(x) != 0: canonical ordering moves x past a mark of class 240 or 1
  const combining = (x) => ("\u0345" + x).normalize("NFD") !== "\u0345" + x
    || (x + "\u0334").normalize("NFD") !== x + "\u0334";

  const folded = new Map();
  function foldChar(c) {
    let f = folded.get(c);
    if (f === undefined) {
      if ((c >= "\uac00" && c <= "\ud7a3") || (c >= "\u1100" && c <= "\u11ff") || (c >= "\u3130" && c <= "\u318f")) f = c;
      else if (c === "đ" || c === "Đ") f = "d";
      else if (c === "ß") f = "ss";
      else f = [...c.normalize("NFKD")].filter((x) => !combining(x)).join("");
      folded.set(c, f);
    }
    return f;
  }

  function fold(text) {
    if (ASCII.test(text)) return text.toLowerCase();
    let out = "";
    for (const c of casefold(text).normalize("NFC")) out += foldChar(c);
    return out;
  }

  const STOPWORDS = new Set();
  for (const ws of Object.values(STOP)) ws.split(/\s+/).filter(Boolean).forEach((w) => STOPWORDS.add(fold(w)));
  // per language, its stopwords and typical words, folded: in a text of that language such a word
  // is that language's word, never another language's glossary word (German "die" is no die)
  const COMMON_WORDS = new Map(Object.keys(STOP).map((lang) => [lang,
    new Set([STOP[lang], TYPICAL[lang]].flatMap((ws) => matchAll(WORD, fold(ws))))]));
  const numberWords = (lang) => NUMBERS[lang].split(" ").flatMap((slot, n) => slot.split("/")
    .filter((w) => w !== "-").map((w) => [w, String(n)]));
  const FREE_NUMBERS = new Map();
  for (const lang of ["en", "fr", "de", "es"]) {
    const bound = HOMOGRAPHS[lang].split(" ");
    for (const [w, n] of numberWords(lang)) if (!bound.includes(w)) FREE_NUMBERS.set(fold(w), n);
  }
  const NUMBER_WORDS = new Map();
  for (const lang of Object.keys(HOMOGRAPHS)) {
    const m = new Map(FREE_NUMBERS), bound = HOMOGRAPHS[lang].split(" ");
    for (const [w, n] of numberWords(lang)) if (bound.includes(w)) m.set(fold(w), n);
    NUMBER_WORDS.set(lang, m);
  }
  const VI_NUMBERS = new Map(numberWords("vi"));
  const VI_NUMBER = new RegExp(`(?<![${W}])(?:${[...VI_NUMBERS.keys()].join("|")})(?![${W}])`, "gu");

  // what a word says about the language: as written, else its folded form (words written with accents)
  const LANG_WORDS = new Map();
  for (const lang of ["en", "fr", "de", "es", "vi"]) {
    const ws = [...STOP[lang].split(/\s+/), ...TYPICAL[lang].split(/\s+/)];
    if (lang !== "vi") ws.push(...numberWords(lang).map(([w]) => w));  // Vietnamese ones fold to other words
    for (const w of ws) {
      for (const x of matchAll(RAW_WORD, w.toLowerCase().normalize("NFC"))) {
        const ls = LANG_WORDS.get(x) || LANG_WORDS.set(x, []).get(x);
        if (!ls.includes(lang)) ls.push(lang);
      }
    }
  }
  LANG_WORDS.forEach((ls) => ls.sort());
  const LANG_WORDS_FOLDED = new Map();
  for (const [w, ls] of LANG_WORDS) {
    if (ASCII.test(w)) continue;
    const f = fold(w);
    LANG_WORDS_FOLDED.set(f, [...new Set([...(LANG_WORDS_FOLDED.get(f) || []), ...ls])].sort());
  }

  function stem(word) {
    if (word.length <= 3 || !isAlpha(word) || isHangul(word)) return word;
    let w = word;
    if (w.endsWith("ies") && w.length > 4) w = w.slice(0, -3) + "y";
    else if (["ches", "shes", "sses", "xes"].some((e) => w.endsWith(e))) w = w.slice(0, -2);
    else if (w.endsWith("s") && !["ss", "us", "is"].some((e) => w.endsWith(e))) w = w.slice(0, -1);
    if (w.endsWith("ing") && w.length > 5) w = w.slice(0, -3);
    else if (w.endsWith("ed") && w.length > 4) w = w.slice(0, -2);
    if (w.endsWith("e") && w.length > 3) w = w.slice(0, -1);
    return w;
  }

  function koreanForms(word) {
    const forms = [word];
    const p = KO_PARTICLES.find((p) => word.endsWith(p) && word.length > p.length);
    if (p) forms.push(word.slice(0, -p.length));
    for (let i = 2; i < word.length; i++) forms.push(word.slice(0, i));
    return forms;
  }

  function words(text, lang) {
    if (lang === "vi") text = casefold(text).normalize("NFC").replace(VI_NUMBER, (m) => VI_NUMBERS.get(m));
    const t = fold(text).replace(GRID, "$1x$2").replace(DIGIT_PLURAL, "$1");
    const numbers = NUMBER_WORDS.get(lang) || FREE_NUMBERS;
    return matchAll(WORD, t).map((w) => numbers.get(w) || w);
  }

  const phrase = (text) => matchAll(WORD, fold(text)).join(" ");

  function tokens(text, lang) {
    return tokensOf(words(text, lang));
  }

  function tokensOf(ws) {
    const out = [];
    for (const w of ws) {
      if (isHangul(w)) {
        if (w.length === 1) out.push(w);
        else for (let i = 0; i < w.length - 1; i++) out.push(w.slice(i, i + 2));
      } else if (!STOPWORDS.has(w)) out.push(stem(w));
    }
    return out;
  }

  // ------------------------------------------------------------------ packed tables

  function table(value) {
    if (typeof value !== "string") return new Map(Object.entries(value || {}));
    const map = new Map();
    for (const line of value.split("\n")) {
      if (!line) continue;
      const tab = line.indexOf("\t");
      const key = tab < 0 ? line : line.slice(0, tab);
      if (!map.has(key)) map.set(key, tab < 0 ? "" : line.slice(tab + 1));
    }
    return map;
  }

  function listed(value) {
    if (value === undefined || value === null) return [];
    return typeof value === "string" ? value.split(/\s+/).filter(Boolean) : [...value];
  }

  // ------------------------------------------------------------------ glossary analysis

  function diceTerms(text) {
    const out = [];
    for (const m of text.matchAll(DICE_RUN)) {
      out.push([CONCEPT + "number-set", m[0]], [CONCEPT + "face-" + (m[1] || m[2][0]), m[0]]);
    }
    for (const m of text.matchAll(COUNT_FACE)) out.push([CONCEPT + "number-set", m[0]], [CONCEPT + "face-" + m[2], m[0]]);
    return out;
  }

  function add(a, cids, src, cgames, sign = 1.0) {
    const games = new Set();
    for (const cid of cids) {
      (cgames.get(cid) || []).forEach((g) => games.add(g));
      a.concepts.push([CONCEPT + cid, src]);
    }
    if (games.size) a.games.push([games, sign]);
  }

  function keysOf(forms) {
    if (forms.every((fs) => fs.length === 1)) return [forms.map((fs) => fs[0]).join(" ").trim()];
    let keys = [""];
    for (const fs of forms) keys = keys.flatMap((k) => fs.map((f) => `${k} ${f}`.trim())).slice(0, 32);
    return keys;
  }

  function compoundParts(word, phrases, langs) {
    const german = (key) => phrases.has(key) && listed(langs.get(key)).includes("de");
    const parts = [];
    for (let i = word.length - 3; i > 3; i--) {
      if (german(word.slice(0, i))) { parts.push(word.slice(0, i)); break; }
    }
    for (let i = 3; i < word.length - 3; i++) {
      const tail = stem(word.slice(i));
      if (german(tail)) { parts.push(tail); break; }
    }
    return parts;
  }

  // analyze(text, glossary, lang=lang) of concepts.py, for a question (every game's concepts)
  function analyze(text, g, lang) {
    const ws = words(text, lang);
    const a = { terms: tokensOf(ws), concepts: [], games: [], langs: new Map() };
    const rawset = new Set(matchAll(RAW_WORD, text).map((w) => casefold(w).normalize("NFC")));
    const dice = diceTerms(ws.join(" "));
    if (dice.length) {
      add(a, ["number-set"], dice[0][1], g.cgames);
      a.concepts.push(...dice.filter((d) => d[0] !== CONCEPT + "number-set"));
    }
    const forms = ws.map((w) => (isHangul(w) ? koreanForms(w) : [stem(w)]));
    const common = COMMON_WORDS.get(lang) || new Set();
    const covered = ws.map(() => false);
    let i = 0;
    while (i < ws.length) {
      let matched = 0;
      for (let n = Math.min(g.longest, ws.length - i); n > 0 && !matched; n--) {
        for (const key of keysOf(forms.slice(i, i + n))) {
          const cids = listed(g.phrases.get(key));
          if (!cids.length || (n === 1 && STOPWORDS.has(ws[i]))) continue;
          const langs = listed(g.langs.get(key));
          // another language's word, here a common word of the text's: "a 3" in English
          if (common.size && !langs.includes(lang) && ws.slice(i, i + n).some((w) => common.has(w))) continue;
          // the meaning in the text's language: French "roi" is a king, not Vietnamese "rời"
          const meant = langs.includes(lang) && g.own.has(key) ? g.own.get(key)[lang] : cids;
          add(a, meant, ws.slice(i, i + n).join(" "), g.cgames, g.weak.has(key) ? WEAK_SIGN : 1.0);
          for (const kl of langs) a.langs.set(kl, (a.langs.get(kl) || 0.0) + 1.0 / langs.length);
          matched = n;
          break;
        }
      }
      for (let k = i; k < i + matched; k++) covered[k] = true;
      i += matched || 1;
    }
    if (lang === undefined || lang === null || lang === "de") {  // German writes compounds as one word
      ws.forEach((w, k) => {
        if (!covered[k] && w.length >= 7 && isAlpha(w) && !isHangul(w) && !STOPWORDS.has(w)) {
          for (const part of compoundParts(w, g.phrases, g.langs)) add(a, listed(g.phrases.get(part)), w, g.cgames);
        }
      });
    }
    for (const [key, cids] of g.exact) {
      const its = g.exactLangs.has(key) ? listed(g.exactLangs.get(key)) : [lang];
      if (rawset.has(key) && !(common.size && !its.includes(lang) && common.has(fold(key)))) add(a, cids, key, g.cgames);
    }
    return a;
  }

  // ------------------------------------------------------------------ languages

  function detectLanguage(text, glossaryLangs) {
    const low = text.toLowerCase().normalize("NFC");  // ß stays
    if (/[\uac00-\ud7a3]/.test(low)) return ["ko", true];
    const score = new Map([["en", 0.0], ["fr", 0.0], ["de", 0.0], ["es", 0.0], ["vi", 0.0]]);
    const bump = (lang, v) => score.set(lang, score.get(lang) + v);
    const unmarked = ASCII.test(low);  // maybe all its accents left out
    for (const w of matchAll(RAW_WORD, low)) {
      let langs = LANG_WORDS.get(w) || [];
      if (unmarked || !langs.length) langs = [...new Set([...langs, ...(LANG_WORDS_FOLDED.get(fold(w)) || [])])].sort();
      for (const lang of langs) bump(lang, 1.0 / langs.length);
      if (!ASCII.test(w)) {
        const [allowed, sign] = lettersSign(w);
        for (const lang of allowed) bump(lang, sign);
      }
    }
    if (low.includes("¿") || low.includes("¡")) bump("es", LETTER);
    if (FRENCH_ELISION.test(low)) bump("fr", LETTER);
    for (const [lang, v] of glossaryLangs || []) if (score.has(lang)) bump(lang, 0.5 * v);
    let best = "en";
    for (const [lang, v] of score) if (v > score.get(best)) best = lang;
    const ranked = [...score.values()].sort((x, y) => y - x);
    if (ranked[0] === 0) return ["en", false];
    return [best, ranked[0] >= 1 && ranked[0] >= 1.5 * ranked[1]];
  }

  function lettersSign(word) {
    const cs = [...word];
    if (cs.some((c) => VI_LETTERS.has(c))) return [["vi"], STRONG_LETTER];
    let allowed = null;
    for (const c of cs) {
      const langs = LETTER_LANGS.get(c);
      if (langs !== undefined) allowed = new Set(allowed === null ? langs : langs.filter((l) => allowed.has(l)));
    }
    if (!allowed || !allowed.size) return [[], 0.0];
    return [[...allowed].sort(), allowed.size === 1 ? LETTER : SHARED_LETTER / allowed.size];
  }

  // analyze_question of concepts.py: the analysis, redone in the language found (number words, common words, compounds)
  function analyzeQuestion(text, g) {
    let a = analyze(text, g);
    let [lang, sure] = detectLanguage(text, a.langs);
    lang = sure ? lang : "en";
    if (sure || words(text, lang).join(" ") !== words(text).join(" ")) a = analyze(text, g, lang);
    return [a, lang];
  }

  function unsupportedScript(text) {
    const letters = [...text].filter((c) => /\p{L}/u.test(c));
    if (!letters.length) return false;
    return !letters.some((c) => c < "\x80" || (c >= "\u00c0" && c <= "\u024f") || (c >= "\u1e00" && c <= "\u1eff")
      || (c >= "\uac00" && c <= "\ud7a3") || (c >= "\u1100" && c <= "\u11ff") || (c >= "\u3130" && c <= "\u318f"));
  }

  // ------------------------------------------------------------------ typos (kbgrules.core.closest, difflib)

  function edits(a, b) {
    if (a === b) return 0;
    let prev2 = [], prev = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
      const cur = [i];
      for (let j = 1; j <= b.length; j++) {
        cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] !== b[j - 1] ? 1 : 0));
        if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) cur[j] = Math.min(cur[j], prev2[j - 2] + 1);
      }
      prev2 = prev;
      prev = cur;
    }
    return prev[b.length];
  }

  const allowedEdits = (w) => (w.length < 4 ? 0 : w.length < 8 ? 1 : 2);

  // the letters difflib's SequenceMatcher(None, a, b) matches (b shorter than 200: no junk, so a
  // longest match needs no widening)
  function matchedLetters(a, b, b2j) {
    let total = 0;
    const queue = [[0, a.length, 0, b.length]];
    while (queue.length) {
      const [alo, ahi, blo, bhi] = queue.pop();
      let bi = alo, bj = blo, bk = 0, j2len = new Map();
      for (let i = alo; i < ahi; i++) {
        const next = new Map();
        for (const j of b2j.get(a[i]) || []) {
          if (j < blo) continue;
          if (j >= bhi) break;
          const k = (j2len.get(j - 1) || 0) + 1;
          next.set(j, k);
          if (k > bk) { bi = i - k + 1; bj = j - k + 1; bk = k; }
        }
        j2len = next;
      }
      if (bk) {
        total += bk;
        if (alo < bi && blo < bj) queue.push([alo, bi, blo, bj]);
        if (bi + bk < ahi && bj + bk < bhi) queue.push([bi + bk, ahi, bj + bk, bhi]);
      }
    }
    return total;
  }

  // closest(word, candidates, n=1, cutoff) of kbgrules.core.closest
  function closest(word, candidates, cutoff) {
    const b2j = new Map();
    for (let j = 0; j < word.length; j++) (b2j.get(word[j]) || b2j.set(word[j], []).get(word[j])).push(j);
    const scored = [];
    for (const x of candidates) {
      const length = x.length + word.length;
      if (2.0 * Math.min(x.length, word.length) / length < cutoff) continue;
      const r = 2.0 * matchedLetters(x, word, b2j) / length;
      if (r >= cutoff) scored.push([r, x]);
    }
    scored.sort((p, q) => q[0] - p[0] || (q[1] > p[1] ? 1 : q[1] < p[1] ? -1 : 0));
    const limit = allowedEdits(word);
    const short = scored.slice(0, 10).map(([, c]) => [edits(word, c), c]);
    short.sort((p, q) => p[0] - q[0]); // stable: difflib's order on a tie
    return short.filter(([d]) => d <= limit).slice(0, 1).map(([, c]) => c);
  }

  function fuzzyConcepts(terms, g, postings, budget, lang) {
    let singles = null;
    const out = [];
    for (const t of terms) {
      if (budget <= 0) break;
      if (postings.has(t) || g.phrases.has(t) || t.length < 5 || isHangul(t) || !ASCII.test(t)) continue;
      budget -= 1;
      if (singles === null) {
        singles = [...g.langs].filter(([k, ls]) => !k.includes(" ") && k.length >= 4 && !isHangul(k)
          && listed(ls).includes(lang)).map(([k]) => k);
      }
      for (const k of closest(t, singles, 0.7)) for (const c of listed(g.phrases.get(k))) out.push([t, CONCEPT + c]);
    }
    return out;
  }

  // ------------------------------------------------------------------ the index

  const prepared = new WeakMap();
  function prepare(index) {
    let p = prepared.get(index);
    if (p) return p;
    const gl = index.glossary || {};
    const lengths = index.lengths;
    p = {
      meta: index.meta,
      ids: new Map(index.meta.map((m, n) => [m[0], n])),
      postings: table(index.postings),
      phrases: table(index.phrases),
      names: table(index.names),
      lengths,
      avg: lengths.reduce((s, x) => s + x, 0) / Math.max(1, index.meta.length),
      g: {
        phrases: table(gl.phrases), exact: table(gl.exact), cgames: table(gl.games), langs: table(gl.langs),
        exactLangs: table(gl.exact_langs || {}), own: table(gl.own || {}),
        weak: table(Array.isArray(gl.weak) ? Object.fromEntries(gl.weak.map((w) => [w, ""])) : gl.weak),
        longest: parseInt(gl.longest || 1, 10),
      },
      idf: new Map(),  // the second stage's term weights and entry facts, kept once computed
      facts: new Map(),
    };
    const kinds = new Map(Object.entries(index.game_info || {}).map(([g, i]) => [g, i.kinds || {}]));
    // an entry's role (store.py's Index.role): the index's table holds every kind of a game's entries
    p.role = (n) => own(kinds.get(index.meta[n][1]), index.meta[n][2]) || "piece";
    p.byLen = new Map();
    for (const name of p.names.keys()) {
      const n = name.split(" ").filter(Boolean).length;
      (p.byLen.get(n) || p.byLen.set(n, []).get(n)).push(name);
    }
    prepared.set(index, p);
    return p;
  }

  const nums = (packed) => (packed || "").split(/\s+/).filter(Boolean).map(Number);

  // Python's round(x, d): the nearest of the d-decimal numbers, half to even on an exact tie
  function roundTo(x, d) {
    const r = Number(x.toFixed(d));
    if (Math.abs((Math.abs(x) * 10 ** d) % 1 - 0.5) > 1e-6) return r;
    const exact = Math.abs(x).toFixed(100), dot = exact.indexOf(".");
    const tie = /^50*$/.test(exact.slice(dot + d + 1)) && Number(exact[dot + d]) % 2 === 0;
    return tie ? Math.sign(x) * Number(exact.slice(0, dot + d + 1)) : r;
  }
  const round3 = (x) => roundTo(x, 3);

  // Python's int() of Unicode digits: each digit's place in its run of ten
  function digitValue(s) {
    let v = 0;
    for (const c of s) {
      let cp = c.codePointAt(0), start = cp;
      while (/\p{Nd}/u.test(String.fromCodePoint(start - 1))) start--;
      v = v * 10 + ((cp - start) % 10);
    }
    return v;
  }

  // ------------------------------------------------------------------ reading the query

  function checkQuery(query) {
    if (typeof query !== "string") throw new QueryError(`a query is text, not ${typeof query}`, "query-type");
    const q = query.replace(STRIP, "");
    if (!q) throw new QueryError("the query is empty; ask with words, an entry's id or name", "empty-query");
    const n = [...q].length;
    if (n > MAX_QUERY) {
      throw new QueryError(`the query is ${String(n).replace(/\B(?=(\d{3})+$)/g, ",")} characters; `
        + `kbg explain reads questions of up to ${MAX_QUERY}`, "query-too-long");
    }
    if (CONTROL.test(q)) throw new QueryError("the query holds control characters or bytes that are not text", "query-binary");
    if (unsupportedScript(q)) {
      throw new QueryError("kbg explain reads English, Korean, French, Vietnamese, German and Spanish; "
        + "this query is in another script", "unsupported-language");
    }
    return q;
  }

  class QueryError extends Error {
    constructor(message, code) { super(message); this.code = code; }
  }

  function namesIn(qWords, names, byLen) {
    const found = new Map();
    for (let n = Math.min(6, qWords.length); n > 0; n--) {
      for (let i = 0; i + n <= qWords.length; i++) {
        const run = qWords.slice(i, i + n).join(" ");
        if (n === 1 && (run.length < 5 || STOPWORDS.has(run))) continue;
        const exact = names.get(run);
        if (exact) {
          for (const e of nums(exact)) if (!found.has(e)) found.set(e, [run, 1.0]);
          continue;
        }
        if (run.length < 6 || isHangul(run)) continue;
        for (const name of byLen.get(n) || []) {
          const limit = allowedEdits(name) + (name.length >= 14 ? 1 : 0);
          if (Math.abs(name.length - run.length) <= limit && name[0] === run[0]) {
            const d = edits(run, name);
            if (d <= limit) {
              const r = 1.0 - d / name.length;
              for (const e of nums(names.get(name))) if (!found.has(e) || found.get(e)[1] < r) found.set(e, [run, r]);
            }
          }
        }
      }
    }
    return found;
  }

  // ------------------------------------------------------------------ search

  function hitOf(p, n, score, why) {
    const [id, game, kind, title] = p.meta[n];
    return { id, score, game, kind, title, why: Object.fromEntries(why || []) };
  }

  function result(query, hits, confident, lang, game, terms = [], notes = [], other = null, coverage = 1.0,
    confidence = null) {
    return { query, hits, confident, lang, game, terms, notes, other_game: other, coverage,
      confidence: confidence === null ? (confident ? 1.0 : 0.0) : confidence };
  }

  function search(index, query, options) {
    const opts = options || {};
    const game = opts.game === undefined ? null : opts.game;
    const limit = opts.limit === undefined || opts.limit === null ? 5 : opts.limit;
    let q;
    try {
      q = checkQuery(query);
    } catch (e) {
      if (e instanceof QueryError) return { error: e.message, code: e.code };
      throw e;
    }
    const p = prepare(index);
    const { meta, ids } = p;
    const [a, lang] = analyzeQuestion(q, p.g);

    const lower = q.toLowerCase();
    if (ids.has(lower)) {
      const i = ids.get(lower);
      return result(query, [hitOf(p, i, 1.0, [["id", 100.0]])], true, lang, meta[i][1]);
    }
    const nm = NUMBERED.exec(lower);  // an entry named by its number: rank.numbered
    const n = nm ? (index.numbered || {})[String(digitValue(nm[2]))] : undefined;
    if (n !== undefined) {
      const words = ((index.game_info || {})[meta[n][1]] || {}).number_words || [];
      if (nm[1] === undefined || words.includes(nm[1])) {
        return result(query, [hitOf(p, n, 1.0, [["number", 100.0]])], true, lang, meta[n][1]);
      }
    }
    const [stage, first, allowed] = firstStage(query, q, index, p, a, lang, game);
    return rerank(stage, first, allowed, limit, modelOf(index));
  }

  // _first_stage of rank.py: candidates by their words and concepts (BM25 over the entries' fields,
  // with bonuses for a known phrasing or a named piece, and priors by role and scope)
  function firstStage(query, q, index, p, a, lang, game) {
    const { meta, postings, lengths, avg } = p;
    const gameOf = (n) => meta[n][1];
    const nDocs = meta.length;

    // which game the words belong to
    const gameConcepts = a.concepts.filter(([c]) => c.startsWith(CONCEPT + "game-"));
    const namedGames = new Set(gameConcepts.map(([c]) => c.slice(CONCEPT.length + 5)));
    const nameWords = new Set(gameConcepts.flatMap(([, src]) => tokens(src, lang)));
    let named = namesIn(words(q, lang), p.names, p.byLen);
    const votes = new Map();
    const vote = (g, v) => votes.set(g, (votes.get(g) || 0.0) + v);
    for (const [gs, sign] of a.games) if (gs.size === 1) vote([...gs][0], sign);
    for (const n of named.keys()) vote(gameOf(n), 1.0);
    const topVote = () => [...votes].reduce((best, kv) => (kv[1] > best[1] ? kv : best))[0];
    let qGame = null;
    if (namedGames.size === 1) qGame = [...namedGames][0];
    else if (!namedGames.size && votes.size) {
      const top = topVote();
      let rest = 0;
      for (const [g, v] of votes) if (g !== top) rest += v;
      if (votes.get(top) >= 1 && (rest === 0 || votes.get(top) >= 2 * rest + 1)) qGame = top;
    }
    const allowed = game !== null ? game : qGame;
    const lean = votes.size && qGame === null && allowed === null ? topVote() : null;

    // the terms, each with a weight; unknown words matched to close known ones
    const qTerms = new Map();
    const notes = [];
    for (const [c] of a.concepts) {
      if (!c.startsWith(CONCEPT + "game-")) qTerms.set(c, Math.max(qTerms.get(c) || 0.0, CONCEPT_WEIGHT));
    }
    for (const t of unique(a.terms)) if (!nameWords.has(t) && postings.has(t) && !qTerms.has(t)) qTerms.set(t, WORD_WEIGHT);
    for (const [t, c] of fuzzyConcepts(a.terms, p.g, postings, MAX_FUZZY, lang)) {
      if (!qTerms.has(c)) { qTerms.set(c, 0.7); notes.push(`${t} ~ ${c}`); }
    }
    let askTerms = null;
    const part = askingPart(q);
    if (part !== null) { // a post that tells a story around its question: the question weighs more
      const pa = analyze(part, p.g, lang);
      askTerms = new Set([...pa.terms, ...pa.concepts.map(([c]) => c)].filter((t) => qTerms.has(t)));
      if (!askTerms.size) askTerms = null;
      else {  // the story's words weigh at most STORY_WEIGHT of the question's, all together
        const mass = new Map([[true, 0.0], [false, 0.0]]);
        for (const [t, w] of qTerms) {
          const raw = postings.get(t);
          const df = raw === undefined ? 0 : raw.split(":").length - 1;
          mass.set(askTerms.has(t), mass.get(askTerms.has(t))
            + (raw !== undefined ? w * Math.log(1 + (nDocs - df + 0.5) / (df + 0.5)) : 0.0));
        }
        const story = mass.get(false) ? Math.min(STORY_WEIGHT, STORY_WEIGHT * mass.get(true) / mass.get(false))
          : STORY_WEIGHT;
        for (const [t, w] of qTerms) if (!askTerms.has(t)) qTerms.set(t, w * story);
        const asked = ` ${words(part, lang).join(" ")} `;  // a piece named in the story only weighs as it does
        named = new Map([...named].map(([n, [run, r]]) => [n, [run, asked.includes(` ${run} `) ? r : r * story]]));
      }
    }

    const scores = new Map();
    const why = new Map();
    const credit = (n, key, s, shown) => {
      scores.set(n, (scores.get(n) || 0.0) + s);
      (why.get(n) || why.set(n, new Map()).get(n)).set(key, shown);
    };
    for (const [t, weight] of qTerms) {
      const raw = postings.get(t);
      if (raw === undefined) continue;
      const docs = raw.split(/\s+/).filter(Boolean).map((pair) => pair.split(":").map(Number));
      const idf = Math.log(1 + (nDocs - docs.length + 0.5) / (docs.length + 0.5));
      for (const [n, tf] of docs) {
        const s = weight * idf * tf * (K1 + 1) / (tf + K1 * (1 - B + B * lengths[n] / avg));
        credit(n, t, s, round3(s));
      }
    }
    const qp = phrase(q);
    for (const n of nums(p.phrases.get(qp))) credit(n, "=phrase", EXACT_PHRASE_BONUS, EXACT_PHRASE_BONUS);
    if (qp.length >= 4) { // a known phrasing inside the question, or the question inside one
      const partial = new Map();
      const qw = qp.split(" ");
      const inside = new Set();
      for (let k = 1; k <= Math.min(8, qw.length); k++) {
        for (let i = 0; i + k <= qw.length; i++) inside.add(qw.slice(i, i + k).join(" "));
      }
      const found = [...inside].filter((s) => p.phrases.has(s) && s !== qp && s.length >= 4).sort()
        .map((s) => [s, p.phrases.get(s)]);  // sorted: a tie picks the same phrase as Python
      if (qp.length >= 8 && qw.length <= 4) for (const [s, ns] of p.phrases) if (s.includes(qp) && s !== qp) found.push([s, ns]);
      for (const [s, ns] of found) {
        const bonus = PARTIAL_PHRASE_BONUS * Math.min(s.length, qp.length) / Math.max(s.length, qp.length);
        for (const n of nums(ns)) if (bonus > (partial.has(n) ? partial.get(n)[0] : 0.0)) partial.set(n, [bonus, s]);
      }
      for (const [n, [bonus, s]] of partial) credit(n, `~phrase:${s}`, bonus, round3(bonus));
    }
    const namedIds = new Map([...named].map(([n, rr]) => [meta[n][0], rr]));
    for (const [n, [run, ratio]] of named) credit(n, `=name:${run}`, NAME_BONUS * ratio, round3(NAME_BONUS * ratio));
    if (namedIds.size) { // the FAQ entries about a named piece share its bonus
      for (const [key, related] of Object.entries(index.faq_related || {})) {
        const r = related.find((r) => namedIds.has(r));
        if (r !== undefined) {
          const [run, ratio] = namedIds.get(r);
          credit(Number(key), `=about:${run}`, RELATED_NAME_BONUS * ratio, round3(RELATED_NAME_BONUS * ratio));
        }
      }
    }

    const prior = (n) => {
      let f = own(ROLE_PRIOR, p.role(n)) || 1.0;
      if (meta[n][0].includes(".log.")) f *= LOG_PRIOR;
      const need = own(index.needs, String(n));
      if (need && need.length && !need.some((c) => qTerms.has(c))) f *= SCOPE_PRIOR;
      if (lean !== null && gameOf(n) === lean) f *= LEAN_PRIOR;
      return f;
    };
    const ranked = [...scores].filter(([n]) => allowed === null || gameOf(n) === allowed)
      .map(([n, s]) => [s * prior(n), n]).sort((x, y) => y[0] - x[0] || y[1] - x[1]);
    const unknown = unique(a.terms).filter((t) => !postings.has(t) && !isHangul(t)
      && !notes.some((n) => n.startsWith(`${t} ~`))).length;
    const stage = new Stage(q, index, p, qTerms, unknown, named, lean, qGame, ranked, why, askTerms);
    return [stage, result(query, [], false, lang, qGame, [...qTerms.keys()], notes, null, 0.0), allowed];
  }

  // ------------------------------------------------------------------ the second stage (rerank.py)

  const MODEL_VERSION = 1;
  const SURE = 0.9;  // an answer, not a list of three, when the first is right this often by the calibration
  // the roles with a feature each (a rule is the reference); "piece" stands for both pieces
  const ROLE_FEATURES = ["faq", "piece", "component", "edition", "variant", "option"];
  const FEATURES = [
    "score", "rank", "cover", "cover_concepts", "ask_gain", "subject", "subject_concepts", "in_subject", "phrasing",
    "phrasing_fit", "named_own", "named_about", "named_other", "exact", "partial", "pairs", "focus", "length",
    "support",
    ...ROLE_FEATURES.map((k) => `kind_${k}`), "log", "scope_miss", "scope_named", "other_lean",
    "question_faq", "short_faq", "short_piece", "statement_rule", "ask_same", "ask_other", "neg_same",
  ];
  const COVER = FEATURES.indexOf("cover");

  const wordset = (text) => new Set(text.split(/\s+/).filter(Boolean).map(fold));
  // what a question asks, by its question words (folded), per kind; then the pairs of words that ask
  const ASK = {
    can: `can could may allowed able peut peux puis pouvez pouvons autorise kann kannst konnen darf darfst
        durfen puedo puede puedes pueden podemos duoc`,
    must: "must need needs required mandatory doit dois doivent faut muss musst mussen debo debe deben phai",
    howmany: "combien wieviel wieviele cuantos cuantas cuanto cuanta",
    when: "when quand wann cuando",
    who: "who whom qui wer wem quien quienes",
    where: "where wo wohin donde",
    how: "how comment wie como",
  };
  const ASK_WORD = new Map();
  for (const [kind, ws] of Object.entries(ASK)) for (const w of ws.split(/\s+/).filter(Boolean)) ASK_WORD.set(w, kind);
  const ASK_PAIR = new Map([["how many", "howmany"], ["how much", "howmany"], ["wie viele", "howmany"],
    ["wie viel", "howmany"], ["bao nhieu", "howmany"], ["what happens", "happens"], ["what if", "happens"],
    ["was passiert", "happens"], ["que pasa", "happens"], ["se passe", "happens"], ["have to", "must"],
    ["has to", "must"], ["tiene que", "must"], ["hay que", "must"], ["co the", "can"], ["khi nao", "when"],
    ["luc nao", "when"], ["o dau", "where"], ["the nao", "how"]]);
  const HANGUL_ASK = [["수 있", "can"], ["수있", "can"], ["되나", "can"], ["가능", "can"], ["해야", "must"],
    ["몇", "howmany"], ["얼마", "howmany"], ["언제", "when"], ["누가", "who"], ["누구", "who"], ["어떻게 되", "happens"],
    ["어디", "where"], ["어떻게", "how"]];
  // a question's first word (an auxiliary or a question word; not "when" or "if", which open statements too)
  const OPENERS = wordset(`do does did is are was were should would will shall has have can could may must
    who what whats which how why where est-ce peut-on puis-je dois-je faut-il qui que quoi quel quelle quels
    quelles comment pourquoi combien kann darf muss ist sind gibt hat haben wer was welche welcher welches wie
    warum wo wieviele puedo puede tengo quien que cual como donde cuanto cuantos cuantas`);
  const VI_ASKS = wordset("khong chua gi nao sao may");  // a Vietnamese question ends with one of these
  const NEGATION = wordset(`not no never cannot can't cant isn't doesn't don't didn't without nobody
    pas jamais sans aucun nicht kein keine keinen nie ohne nunca sin ningun ninguna chua`);
  const HANGUL_NEG = ["안 ", "못 ", "없", "않"];
  const SENTENCE = new RegExp(`(?<=[.!?。？])[${WS}]+|\\n+`, "u");
  const RAW = /[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu;  // [^\W_]+(?:['’-][^\W_]+)*
  const LSTRIP = new RegExp(`^[${WS}]+`, "u");
  const HAS_HANGUL = /[\uac00-\ud7a3]/;
  const KO_QUESTION_END = /(?:나요|까요|까|니|가요|죠)$/;  // on the stripped text: \s*$ adds nothing

  const foldedWords = (text) => matchAll(RAW, text).map((w) => fold(w).replace(/’/g, "'"));

  // what a question asks, by its question words (a question may ask several; a statement usually none)
  function askKinds(text) {
    const ws = foldedWords(text);
    const found = new Set();
    for (let i = 0; i < ws.length; i++) {
      const pair = i + 1 < ws.length ? ASK_PAIR.get(`${ws[i]} ${ws[i + 1]}`) : undefined;
      if (pair !== undefined) {
        found.add(pair);
        i++;
      } else if (ASK_WORD.has(ws[i])) found.add(ASK_WORD.get(ws[i]));
    }
    if (HAS_HANGUL.test(text)) for (const [w, k] of HANGUL_ASK) if (text.includes(w)) found.add(k);
    if (casefold([...text.replace(LSTRIP, "")].slice(0, 3).join("")) === "où ") found.add("where");
    return found;
  }

  // "question" (a question mark, or opened by an auxiliary or a question word), "short" (a few words
  // without a question mark: a heading or a name) or "statement"
  function form(text, nTerms) {
    if (text.includes("?") || text.includes("？")) return "question";
    const ws = foldedWords(text);
    if (ws.length && (OPENERS.has(ws[0]) || (VI_ASKS.has(ws[ws.length - 1]) && ws.length > 2))) return "question";
    if (KO_QUESTION_END.test(text.replace(STRIP, ""))) return "question";
    if (nTerms <= 3 && ws.length <= 5) return "short";
    return "statement";
  }

  const negated = (text) => foldedWords(text).some((w) => NEGATION.has(w) || w.endsWith("n't"))
    || HANGUL_NEG.some((n) => text.includes(n));

  // in a post of several sentences, the sentences that ask; null when every sentence asks or none does
  function askingPart(text) {
    const parts = text.replace(STRIP, "").split(SENTENCE).filter((s) => s.replace(STRIP, ""));
    if (parts.length < 2) return null;
    const asking = parts.filter((s) => form(s, 99) === "question");
    if (!asking.length || asking.length === parts.length) return null;
    return asking.join(" ");
  }

  // weights per feature (a question's own on top), how many candidates are re-ranked, and the
  // calibration (a + b * logit(p) + c * question)
  class Model {
    constructor(data) {
      this.weights = data.weights.map(Number);
      const extra = data.question_weights || this.weights.map(() => 0.0);
      this.questionWeights = this.weights.map((w, k) => w + Number(extra[k]));
      this.pool = Math.trunc(Number(data.pool === undefined ? 25 : data.pool));
      const [a, b, c] = data.calibration === undefined ? [0.0, 1.0, 0.0] : data.calibration;
      this.calibration = [Number(a), Number(b), Number(c)];
      this.sure = Number(data.sure === undefined ? SURE : data.sure);  // the confidence from which kbg answers
    }

    weightsFor(question) {
      return question ? this.questionWeights : this.weights;
    }

    // without fitted weights: the first stage's order, and its probability taken as it is
    static default() {
      return new Model({ weights: FEATURES.map((f) => (f === "score" ? 10.0 : 0.0)), pool: 25 });
    }

    // how often a first answer of probability p is right (measured on the dev questions), for a
    // question or for a statement or a few words
    confidence(p, question) {
      const [a, b, c] = this.calibration;
      p = Math.min(Math.max(p, 1e-6), 1 - 1e-6);
      const z = a + b * Math.log(p / (1 - p)) + c * (question ? 1 : 0);
      return z > -700 ? 1 / (1 + Math.exp(-z)) : 0.0;
    }
  }

  // load_model: the site ships rules_data/explain-model.json as index.model; missing or of another
  // version: Model.default()
  const models = new WeakMap();
  function modelOf(index) {
    const data = index.model;
    if (!data || typeof data !== "object") return Model.default();
    let m = models.get(data);
    if (m === undefined) {
      const fits = data.version === MODEL_VERSION && Array.isArray(data.features)
        && data.features.length === FEATURES.length && data.features.every((f, k) => f === FEATURES[k]);
      m = fits ? new Model(data) : Model.default();
      models.set(data, m);
    }
    return m;
  }

  // what the first stage read in a question, as the features need it
  class Query {
    constructor(text, terms, idf, named, askTerms, lean, qGame) {
      this.terms = terms;  // term -> weight
      this.idf = idf;
      this.concepts = [...terms.keys()].filter((t) => t.startsWith(CONCEPT));
      this.named = named;  // entry number -> how close the name was
      this.askTerms = askTerms;
      this.lean = lean;
      this.qGame = qGame;
      this.form = form(text, terms.size);
      this.ask = askKinds(text);
      this.negated = negated(text);
      let total = 0;
      for (const [t, w] of terms) total += w * idf(t);
      this.total = total || 1.0;
      this.top = 0.0;
    }
  }

  function share(have, terms, idf) {
    let total = 0.0, got = 0.0;
    for (const t of terms) {
      const w = idf(t);
      total += w;
      if (have.has(t)) got += w;
    }
    return total ? got / total : 0.0;
  }

  const codeOrder = (x, y) => (x < y ? -1 : x > y ? 1 : 0);  // Python's sorted() of terms (all in the BMP)

  // the numbers that describe the pair (question, entry n), in the order of FEATURES
  function features(q, n, rank, score, why, meta, entry) {
    const [eid, game, , title] = meta;
    const role = entry.role;
    const group = PIECE_ROLES.includes(role) ? "piece" : role;
    const idf = q.idf;
    let cover = 0;
    for (const [t, w] of q.terms) if (why.has(t)) cover += w * idf(t);
    cover /= q.total;
    const qc = q.concepts;
    const coverC = qc.length ? share(why, qc, idf) : 0.0;
    const askGain = q.askTerms ? share(why, [...q.askTerms].sort(codeOrder), idf) - cover : 0.0;
    // the weights of an entry's own terms were summed when the index was built: only the question's are
    // looked up here
    let subj = 0.0, inSubj = 0.0, subjCC = 0.0;
    entry.subject.forEach((heading, k) => {  // the title, then its translations: the best
      const [total, concepts] = entry.subjectWeights[k];
      let got = 0.0, gotQ = 0.0, gotC = 0.0;
      for (const t of heading) {
        if (q.terms.has(t)) {
          const w = idf(t);
          got += w;
          gotQ += q.terms.get(t) * w;
          if (t.startsWith(CONCEPT)) gotC += w;
        }
      }
      subj = Math.max(subj, total ? got / total : 0.0);
      inSubj = Math.max(inSubj, gotQ / q.total);
      if (k === 0 && concepts) subjCC = gotC / concepts;
    });
    let bestIn = 0.0, bestFit = 0.0;  // the phrasing most of which the question holds; the one that fits it best
    entry.phrasings.forEach((ph, k) => {
      const total = entry.phrasingWeights[k];
      let got = 0.0;
      for (const t of ph) if (q.terms.has(t)) got += idf(t);
      if (got) {
        bestIn = Math.max(bestIn, got / total);
        const inside = new Set(ph);
        let union = 0;
        for (const t of q.terms.keys()) if (!inside.has(t)) union += idf(t);
        bestFit = Math.max(bestFit, got / (total + union));
      }
    });
    const named = q.named.get(n) || 0.0;
    let about = 0.0;
    if (!named && entry.about !== null) for (const [m, r] of q.named) if (entry.about.has(m)) about = Math.max(about, r);
    const namedOther = q.named.size && !named && !about ? Math.max(...q.named.values()) : 0.0;
    const exact = why.has("=phrase") ? 1.0 : 0.0;
    let partial = 0.0;
    for (const [k, v] of why) if (k.startsWith("~phrase:")) partial = Math.max(partial, v);
    partial /= 3.0;
    const held = qc.filter((t) => why.has(t)).length;  // the question's concepts the entry holds
    const pairs = qc.length >= 2 ? (held * (held - 1)) / (qc.length * (qc.length - 1)) : 0.0;
    const focus = held / Math.max(1, entry.concepts);
    const need = entry.need || [];
    const scopeMiss = need.length && !need.some((c) => q.terms.has(c)) ? 1.0 : 0.0;
    const scopeNamed = need.length && !scopeMiss ? 1.0 : 0.0;
    const otherLean = q.lean !== null && game !== q.lean ? 1.0 : 0.0;
    const isFaq = role === "faq";
    const titleAsk = isFaq ? askKinds(title) : new Set();
    const askBoth = [...q.ask].some((k) => titleAsk.has(k));
    const askSame = q.ask.size && titleAsk.size && askBoth ? 1.0 : 0.0;
    const askOther = q.ask.size && titleAsk.size && !askBoth ? 1.0 : 0.0;
    const negSame = isFaq && q.negated && negated(title) ? 1.0 : 0.0;
    const flag = (b) => (b ? 1.0 : 0.0);
    return [
      q.top ? score / q.top : 0.0,
      1.0 / (1 + rank),
      cover,
      coverC,
      askGain,
      Math.min(subj, 1.0),
      subjCC,
      Math.min(inSubj, 1.0),
      bestIn,
      bestFit,
      named,
      about,
      namedOther,
      exact,
      partial,
      pairs,
      Math.min(focus, 1.0),
      Math.log(1 + entry.length) / 6,
      q.top ? Math.min((entry.support || 0.0) / q.top, 3.0) : 0.0,
      ...ROLE_FEATURES.map((k) => flag(group === k)),
      flag(eid.includes(".log.")),
      scopeMiss,
      scopeNamed,
      otherLean,
      flag(isFaq && q.form === "question"),
      flag(isFaq && q.form === "short"),
      flag(q.form === "short" && group === "piece"),
      flag(role === "rule" && q.form === "statement"),
      askSame,
      askOther,
      negSame,
    ];
  }

  // score of rerank.py: the linear model on the features, summed in their order
  function modelScore(model, x, question) {
    const weights = model.weightsFor(question);
    let s = 0;
    for (let k = 0; k < x.length; k++) s += weights[k] * x[k];
    return s;
  }

  // each candidate's share of the answer (a softmax of the scores)
  function probabilities(scores) {
    if (!scores.length) return [];
    const top = Math.max(...scores);
    const exps = scores.map((s) => Math.exp(s - top));
    let total = 0;
    for (const e of exps) total += e;
    return exps.map((e) => e / total);
  }

  // the first stage's reading of a question and its ranking, for the second stage (rank.py's Stage)
  class Stage {
    constructor(q, index, p, qTerms, unknown, named, lean, qGame, ranked, why, askTerms) {
      this.index = index;
      this.p = p;
      this.ranked = ranked;
      this.why = why;
      this.idf = (t) => idfOf(p, t);
      const ratios = new Map([...named].map(([n, [, r]]) => [n, r]));
      this.query = new Query(q, qTerms, this.idf, ratios, askTerms, lean, qGame);
      this.query.total += UNKNOWN_WEIGHT * unknown * Math.log(1 + (p.meta.length - 0.5) / 1.5);
      this.query.top = ranked.length ? ranked[0][0] : 0.0;
    }

    // the first pool candidates: entry number, first-stage score, features
    rows(pool) {
      const cands = this.ranked.slice(0, pool);
      const links = this.index.links || {};
      const near = new Map(cands.map(([, n]) => [n, new Set()]));
      for (const [, n] of cands) {
        for (const m of nums(own(links, String(n)))) {
          if (near.has(m) && m !== n) {
            near.get(n).add(m);
            near.get(m).add(n);
          }
        }
      }
      const scores = new Map(cands.map(([sc, n]) => [n, sc]));
      return cands.map(([sc, n], rank) => {
        const facts = Object.assign({}, entryFacts(this.p, this.index, n));
        facts.support = 0;
        for (const m of [...near.get(n)].sort((x, y) => x - y)) facts.support += scores.get(m);
        return [n, sc, features(this.query, n, rank, sc, this.why.get(n) || new Map(), this.p.meta[n], facts)];
      });
    }
  }

  // a term's weight in the coverage shares (a Korean syllable pair says less than a word)
  function idfOf(p, t) {
    let w = p.idf.get(t);
    if (w === undefined) {
      const raw = p.postings.get(t);
      if (raw === undefined) w = 0.0;
      else {
        const df = raw.split(":").length - 1;
        w = Math.log(1 + (p.meta.length - df + 0.5) / (df + 0.5)) * (isHangul(t) ? 0.3 : 1.0);
      }
      p.idf.set(t, w);
    }
    return w;
  }

  // what the index keeps about entry n for the features (kept once read)
  function entryFacts(p, index, n) {
    let facts = p.facts.get(n);
    if (facts === undefined) {
      let about = null;
      const related = own(index.faq_related, String(n));
      if (related && related.length) about = new Set(related.filter((r) => p.ids.has(r)).map((r) => p.ids.get(r)));
      const subjects = index.subjects || [];
      const weights = index.subject_weights || [];
      const phrasings = own(index.alias_terms, String(n)) || "";
      const phrasingWeights = own(index.alias_weights, String(n)) || "";
      facts = {
        subject: n < subjects.length ? subjects[n].split("|").map((s) => s.split(" ").filter(Boolean)) : [],
        subjectWeights: n < weights.length ? weights[n].split("|").map((s) => s.split(" ").filter(Boolean).map(Number))
          : [],
        phrasings: phrasings.split("|").filter(Boolean).map((s) => s.split(" ").filter(Boolean)),
        phrasingWeights: phrasingWeights.split(" ").filter(Boolean).map(Number),
        concepts: (index.concepts || [])[n] || 0,
        length: index.lengths[n],
        need: own(index.needs, String(n)) || null,
        about,
        role: p.role(n),
      };
      p.facts.set(n, facts);
    }
    return facts;
  }

  // _rerank of rank.py: the candidates re-ranked by the model; each hit's score is its probability
  function rerank(stage, first, allowed, limit, model) {
    const rows = stage.rows(model.pool);
    if (!rows.length) return first;
    const question = stage.query.form === "question";
    const weights = model.weightsFor(question);
    const scored = rows.map(([n, , x], i) => [modelScore(model, x, question), i, n, x])
      .sort((u, v) => v[0] - u[0] || u[1] - v[1]);  // Python: (score, -i) descending
    const probs = probabilities(scored.map(([z]) => z));
    const hits = scored.map(([, , n], k) => hitOf(stage.p, n, roundTo(probs[k], 4), stage.why.get(n)));
    const best = hits[0];
    let other = null;
    if (allowed === null) {
      const next = hits.slice(1).find((h) => h.game !== best.game);
      if (next && next.score >= BOTH_GAMES * best.score) other = next;
    }
    hits.forEach((h, k) => {  // what each feature added to the score of a hit shown (Hit.shares)
      if (k >= limit && h !== other) return;
      const x = scored[k][3];
      h.shares = {};
      FEATURES.forEach((f, j) => { if (weights[j] * x[j]) h.shares[f] = round3(weights[j] * x[j]); });
    });
    let coverage = scored[0][3][COVER];
    const namedIt = Object.keys(best.why).some((k) => k.startsWith("="));
    let confidence = model.confidence(probs[0], question);
    if (!namedIt && coverage < NO_ANSWER_COVERAGE) coverage = confidence = 0.0;
    return result(first.query, hits.slice(0, limit), confidence >= model.sure, first.lang, first.game, first.terms,
      first.notes, other, round3(coverage), round3(confidence));
  }

  return { search, fold, words, tokens, phrase, closest, detectLanguage,
    analyze: (text, index, lang) => analyze(text, prepare(index).g, lang) };
})();

if (typeof module !== "undefined") module.exports = KbgSearch;
