/** The left sidebar: the knowledge-base switcher and the form that creates one. */
import { useState, type FormEvent } from 'react';
import { isIndexing, useIngest } from '../state/ingest';
import { useKbs } from '../state/kbs';

/** The list of knowledge bases (select one to work in it) and "New knowledge base". */
export function KbSidebar() {
  const { kbs, selectedKbId, select } = useKbs();
  const statuses = useIngest((s) => s.status);
  return (
    <aside className="sidebar" aria-label="Knowledge bases">
      <header className="brand">
        <span className="brand-mark" aria-hidden="true">◆</span> Sift
      </header>
      <nav aria-label="Knowledge base switcher" className="kb-nav">
        <h2 className="sidebar-heading">Knowledge bases</h2>
        <ul className="kb-list" role="list">
          {kbs.map((kb) => {
            const busy = isIndexing(statuses[kb.id]);
            return (
              <li key={kb.id}>
                <button
                  type="button"
                  className={kb.id === selectedKbId ? 'kb-item selected' : 'kb-item'}
                  aria-current={kb.id === selectedKbId ? 'true' : undefined}
                  onClick={() => select(kb.id)}
                >
                  <span className="kb-name">{kb.name}</span>
                  <span className="kb-meta">
                    {busy && <span className="pulse" aria-label="indexing" />}
                    {kb.folderCount} folder{kb.folderCount === 1 ? '' : 's'}
                  </span>
                </button>
              </li>
            );
          })}
        </ul>
      </nav>
      <CreateKbForm />
    </aside>
  );
}

function CreateKbForm() {
  const create = useKbs((s) => s.create);
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  async function submit(e: FormEvent) {
    e.preventDefault();
    const error = await create(name);
    setProblem(error);
    if (!error) setName('');
  }
  return (
    <form className="create-kb" onSubmit={(e) => void submit(e)}>
      <label htmlFor="new-kb-name">New knowledge base</label>
      <div className="row">
        <input
          id="new-kb-name"
          value={name}
          placeholder="Name, e.g. 工作笔记"
          aria-invalid={problem ? 'true' : undefined}
          aria-describedby={problem ? 'new-kb-error' : undefined}
          onChange={(e) => setName(e.target.value)}
        />
        <button type="submit">Create</button>
      </div>
      {problem && (
        <p id="new-kb-error" role="alert" className="field-error">
          {problem}
        </p>
      )}
    </form>
  );
}
