/** Marks the lines of the request under the cursor: the one Ctrl-Enter runs. */
import { RangeSetBuilder } from '@codemirror/state';
import {
  Decoration,
  ViewPlugin,
  type DecorationSet,
  type EditorView,
  type ViewUpdate,
} from '@codemirror/view';
import { requestAt } from './requests.js';

const band = Decoration.line({ class: 'cm-active-request' });

function decorate(view: EditorView): DecorationSet {
  const { doc, selection } = view.state;
  const req = requestAt(doc.toString(), selection.main.head);
  const builder = new RangeSetBuilder<Decoration>();
  if (!req) return builder.finish();
  for (let pos = req.from; pos <= req.to && pos <= doc.length;) {
    const line = doc.lineAt(pos);
    builder.add(line.from, line.from, band);
    pos = line.to + 1;
  }
  return builder.finish();
}

export const activeRequest = ViewPlugin.fromClass(
  class {
    decorations: DecorationSet;
    constructor(view: EditorView) {
      this.decorations = decorate(view);
    }
    update(u: ViewUpdate) {
      if (u.docChanged || u.selectionSet) this.decorations = decorate(u.view);
    }
  },
  { decorations: (v) => v.decorations },
);
