import { childOf, childrenOf, lineAt, lineCounter, readXml, textAt, type XmlElement } from './xml';

const refusal = (text: string) => {
  try {
    readXml(text);
  } catch (error) {
    return (error as Error).message;
  }
  return null;
};

describe('readXml', () => {
  it('reads elements, attributes, text with entities and character references, CDATA; passes over comments and instructions', () => {
    const root = readXml(
      `\uFEFF<?xml version="1.0" encoding="UTF-8"?>\n<!-- a statement -->\n<a:Doc xmlns:a="urn:x" kind='t&amp;c'>\n  <Nm>M&#252;ller &amp; S&#xF6;hne &lt;GmbH&gt; &quot;&apos;</Nm>\n  <Empty/>\n  <Note><![CDATA[<b>&raw</b>]]> end</Note>\n  <?pi ignored?>\n</a:Doc>`,
    );
    expect([root.name, root.tag, root.attributes]).toEqual(['Doc', 'a:Doc', { 'xmlns:a': 'urn:x', kind: 't&c' }]);
    expect(textAt(root, 'Nm')).toBe('Müller & Söhne <GmbH> "\'');
    expect(childOf(root, 'Empty')).toMatchObject({ name: 'Empty', children: [], text: '' });
    expect(textAt(root, 'Note')).toBe('<b>&raw</b> end');
    expect(root.children.map((c) => c.name)).toEqual(['Nm', 'Empty', 'Note']);
  });

  it('tells the open elements to `open` and leaves out of the tree what `close` is done with', () => {
    const seen: string[] = [];
    const used: string[] = [];
    const root = readXml('<R><S><E>1</E><E>2</E><T>x</T></S></R>', {
      open: (element, ancestors) => seen.push([...ancestors.map((a) => a.name), element.name].join('/')),
      close: (element: XmlElement) => {
        if (element.name !== 'E') return true;
        used.push(element.text);
        return false;
      },
    });
    expect(seen).toEqual(['R', 'R/S', 'R/S/E', 'R/S/E', 'R/S/T']);
    expect(used).toEqual(['1', '2']);
    expect(childrenOf(childOf(root, 'S'), 'E')).toEqual([]);
    expect(textAt(root, 'S/T')).toBe('x');
  });

  it('refuses any declaration unread: DOCTYPE, ENTITY, ELEMENT', () => {
    const laughs = '<?xml version="1.0"?>\n<!DOCTYPE l [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;&a;">]>\n<l>&b;</l>';
    expect(refusal(laughs)).toBe('the file has a <!DOCTYPE declaration, which is refused: a statement needs none, and one can define entities that expand without end or read other files (line 2)');
    expect(refusal('<r><!ENTITY x SYSTEM "http://example.com/x"></r>')).toMatch(/^the file has a <!ENTITY declaration, which is refused/);
    expect(refusal('<!ELEMENT r ANY><r/>')).toMatch(/^the file has a <!ELEMENT declaration/);
  });

  it('refuses references to entities never declared and characters that are none', () => {
    expect(refusal('<r>\n&xxe;</r>')).toBe("'&xxe;' is not a character the file may name: only &amp; &lt; &gt; &quot; &apos; and &#...; are read, and a file may not declare its own entities (line 1)");
    expect(refusal('<r a="&ext;"/>')).toMatch(/^'&ext;' is not a character the file may name/);
    expect(refusal('<r>AT&T</r>')).toMatch(/^'&T' is not a character the file may name/);
    expect(refusal('<r>&#0;</r>')).toBe("'&#0;' is not a character (line 1)");
    expect(refusal('<r>&#xD800;</r>')).toBe("'&#xD800;' is not a character (line 1)");
  });

  it('refuses a document cut short, wherever it ends', () => {
    expect(refusal('<r>\n<a>text')).toBe('the file ends inside <a>, which is never closed: it is cut short (line 2)');
    expect(refusal('<r><a x="1')).toBe('the file ends inside a tag: it is cut short (line 1)');
    expect(refusal('<r><a')).toBe('the file ends inside a tag: it is cut short (line 1)');
    expect(refusal('<r></r')).toBe('the file ends inside an end tag: it is cut short (line 1)');
    expect(refusal('<r><!-- note')).toBe('the file ends inside a comment: it is cut short (line 1)');
    expect(refusal('<r><![CDATA[x')).toBe('the file ends inside a CDATA section: it is cut short (line 1)');
    expect(refusal('<?xml version="1.0"')).toBe('the file ends inside a processing instruction: it is cut short (line 1)');
    expect(refusal('')).toBe('the file holds no XML element');
  });

  it('refuses what is not well formed: crossed tags, stray text, a second root, deep nesting', () => {
    expect(refusal('<r>\n<a>\n</b></r>')).toBe("'</b></r>' does not end <a> (started on line 2) (line 3)");
    expect(refusal('</r>')).toBe("'</r>' ends an element that was not started (line 1)");
    expect(refusal('<r/><s/>')).toBe('<s> follows the root element: a document has one (line 1)');
    expect(refusal('<r/>tail')).toBe('text after the root element ends (line 1)');
    expect(refusal('<1r/>')).toBe("'<1r/>' is not a well-formed tag (line 1)");
    expect(refusal('<r a=1/>')).toBe("'<r a=1/>' is not a well-formed tag (line 1)");
    expect(refusal(`${'<a>'.repeat(101)}${'</a>'.repeat(101)}`)).toBe('elements nest more than 100 deep (line 1)');
  });
});

describe('lines', () => {
  it('counts lines of an offset, on from the last one asked and again from the start when asked for an earlier one', () => {
    const text = 'a\nb\nc\nd';
    const lineOf = lineCounter(text);
    expect([lineOf(0), lineOf(2), lineOf(6), lineOf(2)]).toEqual([1, 2, 4, 2]);
    expect(lineAt(text, 4)).toBe(3);
  });
});
