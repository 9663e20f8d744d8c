// Pure parts of the template catalogues: name cleaning, the two label template formats, licence placeholders.
import { LabelTemplateError, parseLabelTemplate } from '../../src/domain/label-template.ts';
import { fillLicense } from '../../src/domain/license-placeholders.ts';
import { templateFileName } from '../../src/templates/template-files.ts';

describe('templateFileName', () => {
  it.each([
    ['Go', 'Go'],
    ['C++', 'C++'],
    ['../Go', 'Go'],
    ['../../app.ini', 'app.ini'],
    ['..\\..\\app.ini', 'app.ini'],
    ['/etc/passwd', null],
    ['a/../b', 'b'],
    ['./Go', 'Go'],
    ['..', null],
    ['', null],
    ['../license/MIT', null],
    ['sub\\file', null],
    ['x\0y', null],
  ])('%p → %p', (requested, expected) => {
    expect(templateFileName(requested)).toBe(expected);
  });
});

describe('parseLabelTemplate', () => {
  it('reads the line format: colour, name, optional description', () => {
    expect(
      parseLabelTemplate('Mine', '#FF0000 bug ; broken things\r\n\n  #00ff00   good first issue  \n#abc x;\n'),
    ).toEqual([
      { name: 'bug', color: '#ff0000', description: 'broken things', exclusive: false },
      { name: 'good first issue', color: '#00ff00', description: '', exclusive: false },
      { name: 'x', color: '#aabbcc', description: '', exclusive: false },
    ]);
  });

  it.each(['#ff0000', '#ff0000 ; no name', 'red bug', '# comment line'])('refuses the line %p', (line) => {
    expect(() => parseLabelTemplate('Mine', line)).toThrow(LabelTemplateError);
  });

  it('reads YAML with colours as written (no number conversion) and exclusivity', () => {
    const yaml =
      'labels:\n  - name: a\n    color: 001122\n  - name: Kind/b\n    color: "#ABCDEF"\n    exclusive: true\n    description: " b "\n  - name: c\n    color: 123\n    exclusive: false\n';
    expect(parseLabelTemplate('Mine.yaml', yaml)).toEqual([
      { name: 'a', color: '#001122', description: '', exclusive: false },
      { name: 'Kind/b', color: '#abcdef', description: 'b', exclusive: true },
      { name: 'c', color: '#112233', description: '', exclusive: false },
    ]);
    expect(parseLabelTemplate('Empty.yml', '')).toEqual([]);
  });

  it.each([
    'labels:\n  - name: a\n',
    'labels:\n  - color: fff\n',
    'labels:\n  - name: a\n    color: blue\n',
    'labels: nope\n',
    'labels: [\n',
  ])('refuses the YAML %p', (yaml) => {
    expect(() => parseLabelTemplate('Bad.yaml', yaml)).toThrow(LabelTemplateError);
  });
});

describe('fillLicense', () => {
  const values = { owner: 'alice', email: 'alice@example.com', repo: 'tool', year: '2031' };

  it('replaces the common placeholders and ends with a newline', () => {
    expect(fillLicense('MIT', 'Copyright (c) <year> <copyright holders>', values)).toBe('Copyright (c) 2031 alice\n');
    expect(fillLicense('Apache-2.0', 'Copyright [yyyy] [name of copyright owner]\r\nrest\n', values)).toBe(
      'Copyright 2031 alice\nrest\n',
    );
    expect(
      fillLicense(
        'GPL-3.0-only',
        "<one line to give the program's name and a brief idea of what it does.>\n<program> [EMAIL]",
        values,
      ),
    ).toBe('tool\ntool alice@example.com\n');
  });

  it('fills 0BSD only on its copyright line, where bare words are placeholders', () => {
    const text = 'Copyright (C) YEAR by AUTHOR EMAIL\n\nTHE AUTHOR DISCLAIMS ALL WARRANTIES IN YEAR';
    expect(fillLicense('0BSD', text, values)).toBe(
      'Copyright (C) 2031 by alice alice@example.com\n\nTHE AUTHOR DISCLAIMS ALL WARRANTIES IN YEAR\n',
    );
  });
});
