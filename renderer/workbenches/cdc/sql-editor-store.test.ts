import { describe, expect, it } from 'vitest';
import type { Failure } from './store.js';
import { editorErrorSpot } from './sql-editor-store.js';

const e1146: Failure = { system: 'MySQL', text: "ERROR 1146 (42S02): Table 'demo.nope' doesn't exist" };

describe('editorErrorSpot: only the editor’s own error is marked in its text', () => {
  it('marks the error of the text the editor ran', () => {
    expect(editorErrorSpot({ sql: 'SELECT * FROM nope', error: e1146 }, e1146, 'SELECT * FROM nope')).toEqual({ line: 1, startColumn: 15, endColumn: 19 });
  });
  it('marks nothing once the text changed', () => {
    expect(editorErrorSpot({ sql: 'SELECT * FROM nope', error: e1146 }, e1146, 'SELECT * FROM nope2')).toBeNull();
  });
  it("marks nothing for another run's error (a scenario step, the quick form)", () => {
    const other: Failure = { ...e1146 };
    expect(editorErrorSpot({ sql: 'SELECT * FROM nope', error: e1146 }, other, 'SELECT * FROM nope')).toBeNull();
    expect(editorErrorSpot(null, e1146, 'SELECT * FROM nope')).toBeNull();
  });
});
