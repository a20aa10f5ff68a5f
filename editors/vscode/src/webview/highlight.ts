import hljs from "highlight.js/lib/core";
import bash from "highlight.js/lib/languages/bash";
import c from "highlight.js/lib/languages/c";
import cpp from "highlight.js/lib/languages/cpp";
import css from "highlight.js/lib/languages/css";
import diff from "highlight.js/lib/languages/diff";
import go from "highlight.js/lib/languages/go";
import java from "highlight.js/lib/languages/java";
import javascript from "highlight.js/lib/languages/javascript";
import json from "highlight.js/lib/languages/json";
import makefile from "highlight.js/lib/languages/makefile";
import markdown from "highlight.js/lib/languages/markdown";
import python from "highlight.js/lib/languages/python";
import rust from "highlight.js/lib/languages/rust";
import shell from "highlight.js/lib/languages/shell";
import sql from "highlight.js/lib/languages/sql";
import typescript from "highlight.js/lib/languages/typescript";
import xml from "highlight.js/lib/languages/xml";
import yaml from "highlight.js/lib/languages/yaml";

// The core and the languages an agent's answers mostly hold, registered
// once; the aliases (sh, ts, js, py, html, yml, …) come with them.
for (const [name, lang] of Object.entries({ bash, c, cpp, css, diff, go, java, javascript, json, makefile, markdown, python, rust, shell, sql, typescript, xml, yaml })) {
  hljs.registerLanguage(name, lang);
}
hljs.registerAliases(["console", "terminal"], { languageName: "shell" });

/**
 * The code highlighted as HTML (highlight.js's escaped text in
 * `<span class="hljs-…">` spans) for a known language name or alias;
 * undefined for no language or an unknown one (no guessing: a wrong guess
 * colours worse than none).
 */
export function highlightCode(code: string, lang: string): string | undefined {
  if (!lang || !hljs.getLanguage(lang)) return undefined;
  return hljs.highlight(code, { language: lang, ignoreIllegals: true }).value;
}
