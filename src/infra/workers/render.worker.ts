// A render thread's side: one markup document per task (render-pool.ts posts them).
import { renderMarkup, type RenderOutcome, type RenderRequest } from '../../render/markup.ts';
import type { ResolvedReferences } from '../../render/references.ts';

export interface RenderTask {
  request: RenderRequest;
  /** What the document mentions that exists, once looked up; null on the first pass. */
  resolved: ResolvedReferences | null;
}

export default function render(task: RenderTask): RenderOutcome {
  return renderMarkup(task.request, task.resolved);
}
