/**
 * ECMA-262 patterns (JSON Schema's dialect) matched by RE2 (re2js), in linear time: a
 * backtracking engine (JavaScript's RegExp) can be held for hours by a 30-character value
 * against `^(a+)+$`, and in the page that holds the visitor's tab. The TypeScript twin of
 * _runtime/linear_patterns.py and _runtime/patterns.py: the translation must give the same RE2
 * source, word for word, or the two languages would match differently (the twin tests compare).
 *
 * Translated so that RE2 means what ECMA-262 (with the `u` flag) means: `.` is any character but
 * the four line terminators; `\s`/`\S` are ECMA-262's white space; `\uXXXX` (surrogate pairs
 * joined), `\u{X}`, `\xXX`, `\cX`, `\0` become `\x{...}`; `\p{Letter}`, `\p{gc=Lu}`,
 * `\p{Script=Greek}` the short names RE2 knows; in a class `\b` is a backspace and `[` a plain
 * character; `[^]` is any character. Refused with the reason: back references, and lookarounds
 * other than lookaheads right after a leading `^`, which are split off (`^(?!/)X$` matches when
 * `^(?:/)` does not and `^(?:X$)` does).
 */

import { RE2JS } from "re2js";

const SPACE =
  "\\t\\n\\x{0B}\\f\\r \\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}" +
  "\\x{205F}\\x{3000}\\x{FEFF}";
const ANY = "\\x{0}-\\x{10FFFF}";
const DOT = "[^\\n\\r\\x{2028}\\x{2029}]";
const SAME = new Set("dDwWtnrfv");
const OUTSIDE_ONLY = new Set("bB");
const CATEGORIES: Readonly<Record<string, string>> = {
  Letter: "L", Cased_Letter: "L", Uppercase_Letter: "Lu", Lowercase_Letter: "Ll",
  Titlecase_Letter: "Lt", Modifier_Letter: "Lm", Other_Letter: "Lo", Mark: "M",
  Combining_Mark: "M", Nonspacing_Mark: "Mn", Spacing_Mark: "Mc", Enclosing_Mark: "Me",
  Number: "N", Decimal_Number: "Nd", digit: "Nd", Letter_Number: "Nl",
  Other_Number: "No", Punctuation: "P", punct: "P", Connector_Punctuation: "Pc",
  Dash_Punctuation: "Pd", Open_Punctuation: "Ps", Close_Punctuation: "Pe",
  Initial_Punctuation: "Pi", Final_Punctuation: "Pf", Other_Punctuation: "Po",
  Symbol: "S", Math_Symbol: "Sm", Currency_Symbol: "Sc", Modifier_Symbol: "Sk",
  Other_Symbol: "So", Separator: "Z", Space_Separator: "Zs", Line_Separator: "Zl",
  Paragraph_Separator: "Zp", Other: "C", Control: "Cc", cntrl: "Cc", Format: "Cf",
  Private_Use: "Co", Surrogate: "Cs",
};

/** A pattern RE2 cannot match as ECMA-262 means it; the message says why. */
export class Unreadable extends Error {}

/** One RE2 pattern and whether a text must match it (false: a negative lookahead). */
export interface Part {
  readonly source: string;
  readonly mustMatch: boolean;
}

/** The RE2 patterns that together match as `pattern` does; throws `Unreadable`. */
export function linearParts(pattern: string): Part[] {
  const chars = [...pattern]; // code points, as Python indexes a str
  if (chars.includes("\u0000")) throw new Unreadable("a NUL character in the pattern itself");
  const parts: Part[] = [];
  let at = 0;
  if (chars[0] === "^") {
    at = 1;
    while (startsWith(chars, at, "(?=") || startsWith(chars, at, "(?!")) {
      const end = groupEnd(chars, at);
      const body = translate(chars.slice(at + 3, end - 1));
      parts.push({ source: `^(?:${body})`, mustMatch: chars[at + 2] === "=" });
      at = end;
    }
  }
  if (parts.length === 0) return [{ source: translate(chars), mustMatch: true }];
  const rest = chars.slice(at);
  if (hasTopLevelBar(rest)) throw new Unreadable("a lookahead after `^` in a pattern with `|` outside any group");
  parts.push({ source: `^(?:${translate(rest)})`, mustMatch: true });
  return parts;
}

function startsWith(chars: readonly string[], at: number, text: string): boolean {
  return chars.slice(at, at + text.length).join("") === text;
}

function translate(chars: readonly string[]): string {
  const out: string[] = [];
  let at = 0;
  while (at < chars.length) {
    const char = chars[at] ?? "";
    let text: string;
    if (char === "\\") [text, at] = escape(chars, at, false);
    else if (char === "[") [text, at] = charClass(chars, at);
    else if (char === "(") [text, at] = groupOpen(chars, at);
    else if (char === ".") [text, at] = [DOT, at + 1];
    else {
      checkCharacter(char);
      [text, at] = [char, at + 1];
    }
    out.push(text);
  }
  return out.join("");
}

function groupOpen(chars: readonly string[], at: number): [string, number] {
  if (!startsWith(chars, at, "(?")) return ["(", at + 1];
  if (["(?=", "(?!", "(?<=", "(?<!"].some((open) => startsWith(chars, at, open))) {
    throw new Unreadable(
      "a lookaround other than a lookahead right after a leading `^`, which only a backtracking engine matches",
    );
  }
  if (["(?:", "(?<", "(?P<"].some((open) => startsWith(chars, at, open))) return ["(?", at + 2];
  let flags = at + 2;
  while (flags < chars.length && "ims-".includes(chars[flags] ?? "")) flags += 1;
  if (flags > at + 2 && flags < chars.length && ":)".includes(chars[flags] ?? "")) {
    return [chars.slice(at, flags + 1).join(""), flags + 1];
  }
  throw new Unreadable(`the group ${pyRepr(chars.slice(at, at + 4).join(""))}... is not ECMA-262`);
}

function escape(chars: readonly string[], at: number, inClass: boolean): [string, number] {
  if (at + 1 >= chars.length) throw new Unreadable("the pattern ends in a lone backslash");
  const char = chars[at + 1] ?? "";
  const after = at + 2;
  if (SAME.has(char) || (OUTSIDE_ONLY.has(char) && !inClass)) return ["\\" + char, after];
  if (char === "b") return ["\\x{8}", after];
  if (char === "s") return [inClass ? SPACE : `[${SPACE}]`, after];
  if (char === "S") {
    if (inClass) throw new Unreadable("`\\S` inside a class beside other characters");
    return [`[^${SPACE}]`, after];
  }
  if (char === "0" && !isDigit(chars[after] ?? "")) return ["\\x{0}", after];
  if (isDigit(char) || (char === "k" && chars[after] === "<")) {
    throw new Unreadable("a back reference, which only a backtracking engine matches");
  }
  if (char === "x") {
    const digits = chars.slice(after, after + 2).join("");
    if (digits.length === 2 && isHex(digits)) return [codePoint(parseInt(digits, 16)), after + 2];
    throw new Unreadable("`\\x` without two hexadecimal digits");
  }
  if (char === "u") return unicodeEscape(chars, after);
  if (char === "c") {
    const letter = chars[after] ?? "";
    if (/^[A-Za-z]$/.test(letter)) return [codePoint(letter.charCodeAt(0) % 32), after + 1];
    throw new Unreadable("`\\c` without a letter");
  }
  if (char === "p" || char === "P") return property(chars, at, char);
  if (/^[A-Za-z0-9_]$/.test(char)) {
    throw new Unreadable(`\`\\${char}\` is not an escape of ECMA-262 (JSON Schema's dialect)`);
  }
  if ((char.codePointAt(0) ?? 0) > 0x7f) return [literal(char), after];
  return ["\\" + char, after];
}

function unicodeEscape(chars: readonly string[], after: number): [string, number] {
  if (chars[after] === "{") {
    const end = chars.indexOf("}", after);
    const digits = end > 0 ? chars.slice(after + 1, end).join("") : "";
    if (digits && isHex(digits) && parseInt(digits, 16) <= 0x10ffff) return [codePoint(parseInt(digits, 16)), end + 1];
    throw new Unreadable("`\\u{...}` that is not a code point");
  }
  const digits = chars.slice(after, after + 4).join("");
  if (digits.length !== 4 || !isHex(digits)) throw new Unreadable("`\\u` without four hexadecimal digits");
  const unit = parseInt(digits, 16);
  const lowDigits = chars.slice(after + 6, after + 10).join("");
  if (unit >= 0xd800 && unit < 0xdc00 && startsWith(chars, after + 4, "\\u") && isHex(lowDigits)) {
    const low = parseInt(lowDigits, 16);
    if (low >= 0xdc00 && low < 0xe000 && lowDigits.length === 4) {
      return [codePoint(0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00)), after + 10];
    }
  }
  return [codePoint(unit), after + 4];
}

function property(chars: readonly string[], at: number, char: string): [string, number] {
  if (chars[at + 2] !== "{") throw new Unreadable(`\`\\${char}\` without \`{name}\``);
  const end = chars.indexOf("}", at + 2);
  if (end < 0) throw new Unreadable(`\`\\${char}{\` without its \`}\``);
  let name = chars.slice(at + 3, end).join("");
  const equals = name.indexOf("=");
  if (equals >= 0 && equals < name.length - 1) {
    if (!["General_Category", "gc", "Script", "sc"].includes(name.slice(0, equals))) {
      throw new Unreadable(`the property ${pyRepr(name)}, which RE2 does not know`);
    }
    name = name.slice(equals + 1);
  }
  const short = Object.prototype.hasOwnProperty.call(CATEGORIES, name) ? (CATEGORIES[name] ?? name) : name;
  if (!/^[A-Za-z0-9_]+$/.test(short)) throw new Unreadable(`the property ${pyRepr(name)}, which RE2 does not know`);
  return [`\\${char}{${short}}`, end + 1];
}

function charClass(chars: readonly string[], at: number): [string, number] {
  const start = at + 1;
  const negated = chars[start] === "^";
  at = negated ? start + 1 : start;
  let members: string[] = [];
  const opposite = { s: false, S: false };
  while (at < chars.length && chars[at] !== "]") {
    const char = chars[at] ?? "";
    const next = chars[at + 1] ?? "";
    if (char === "\\" && (next === "s" || next === "S")) {
      opposite[next] = true;
      at += 2;
    } else if (char === "\\") {
      let text: string;
      [text, at] = escape(chars, at, true);
      members.push(text);
    } else if (char === "[") {
      members.push("\\[");
      at += 1;
    } else {
      checkCharacter(char);
      members.push((char === "^" || char === "-") && members.length === 0 ? literal(char) : char);
      at += 1;
    }
  }
  if (at >= chars.length) throw new Unreadable("a `[` without its `]`");
  if (opposite.s && opposite.S) members = [ANY];
  else if (opposite.S) {
    if (members.length > 0) throw new Unreadable("`\\S` inside a class beside other characters");
    return [negated ? `[${SPACE}]` : `[^${SPACE}]`, at + 1];
  } else if (opposite.s) members.push(SPACE);
  if (members.length === 0) return [negated ? `[${ANY}]` : `[^${ANY}]`, at + 1];
  return [(negated ? "[^" : "[") + members.join("") + "]", at + 1];
}

/** [index, character, depth of groups before it] of each `(`, `)` and `|` from `at`, outside
 * escapes and classes. */
function* structure(chars: readonly string[], at = 0): Generator<[number, string, number]> {
  let depth = 0;
  while (at < chars.length) {
    const char = chars[at] ?? "";
    if (char === "\\") at += 2;
    else if (char === "[") at = charClass(chars, at)[1];
    else {
      if ("()|".includes(char)) {
        yield [at, char, depth];
        depth += (char === "(" ? 1 : 0) - (char === ")" ? 1 : 0);
      }
      at += 1;
    }
  }
}

function groupEnd(chars: readonly string[], at: number): number {
  for (const [index, char, depth] of structure(chars, at)) if (char === ")" && depth === 1) return index + 1;
  throw new Unreadable("a `(` without its `)`");
}

function hasTopLevelBar(chars: readonly string[]): boolean {
  for (const [, char, depth] of structure(chars)) if (char === "|" && depth === 0) return true;
  return false;
}

function checkCharacter(char: string): void {
  const code = char.codePointAt(0) ?? 0;
  if (code >= 0xd800 && code < 0xe000) throw new Unreadable(`the lone surrogate U+${hex4(code)}, which UTF-8 cannot encode`);
}

function literal(char: string): string {
  return codePoint(char.codePointAt(0) ?? 0);
}

function codePoint(value: number): string {
  if (value >= 0xd800 && value < 0xe000) throw new Unreadable(`the lone surrogate U+${hex4(value)}, which UTF-8 cannot encode`);
  return `\\x{${value.toString(16).toUpperCase()}}`;
}

function hex4(value: number): string {
  return value.toString(16).toUpperCase().padStart(4, "0");
}

const isDigit = (char: string): boolean => /^[0-9]$/.test(char);
const isHex = (text: string): boolean => /^[0-9a-fA-F]*$/.test(text);

/** Python's repr of a string of printable characters, as the Python twin spells its reasons. */
function pyRepr(text: string): string {
  return text.includes("'") && !text.includes('"') ? `"${text}"` : `'${text.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
}

/** What Ajv asks of a regular expression: `test` (a search anywhere in the text), and
 * `toString`, its key among the compiled patterns (one per pattern, as a RegExp's). */
export interface LinearPattern {
  test(text: string): boolean;
  toString(): string;
}

const compiled = new Map<string, LinearPattern>();

/** `pattern` as RE2 matches it; throws `Unreadable` (as Ajv's RegExp would throw). */
export function linearPattern(pattern: string): LinearPattern {
  const known = compiled.get(pattern);
  if (known !== undefined) return known;
  const tests = linearParts(pattern).map((part): [RE2JS, boolean] => {
    try {
      return [RE2JS.compile(part.source), part.mustMatch];
    } catch (error) {
      throw new Unreadable(`RE2 cannot read it: ${error instanceof Error ? error.message : String(error)}`);
    }
  });
  const made: LinearPattern = {
    test: (text) => tests.every(([re, must]) => re.test(text) === must),
    toString: () => `/${pattern}/`,
  };
  compiled.set(pattern, made);
  return made;
}

/** Why RE2 cannot match `pattern` (null when it can). */
export function unreadable(pattern: string): string | null {
  try {
    linearPattern(pattern);
    return null;
  } catch (error) {
    if (error instanceof Unreadable) return error.message;
    throw error;
  }
}
