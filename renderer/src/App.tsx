import { useEffect, useState, type FormEvent } from 'react';
import { useApp } from './store';

/** The application shell: knowledge bases on the left, the selected one on the right. */
export function App() {
  const { kbs, selectedKbId, loaded, error, loadKbs, selectKb, clearError } = useApp();
  useEffect(() => {
    void loadKbs();
  }, [loadKbs]);
  const selected = kbs.find((k) => k.id === selectedKbId) ?? null;

  return (
    <div className="app">
      <aside className="sidebar" aria-label="Knowledge bases">
        <header className="brand">Sift</header>
        <nav>
          <ul className="kb-list" role="list">
            {kbs.map((kb) => (
              <li key={kb.id}>
                <button
                  type="button"
                  className={kb.id === selectedKbId ? 'kb-item selected' : 'kb-item'}
                  aria-current={kb.id === selectedKbId ? 'true' : undefined}
                  onClick={() => selectKb(kb.id)}
                >
                  <span className="kb-name">{kb.name}</span>
                  <span className="kb-meta">{kb.folderCount} folder{kb.folderCount === 1 ? '' : 's'}</span>
                </button>
              </li>
            ))}
          </ul>
        </nav>
        <CreateKbForm />
      </aside>
      <main className="main">
        {error && (
          <div role="alert" className="banner error">
            {error}
            <button type="button" aria-label="Dismiss" onClick={clearError}>
              ×
            </button>
          </div>
        )}
        {!loaded ? null : selected ? (
          <section aria-labelledby="kb-title">
            <h1 id="kb-title">{selected.name}</h1>
            <p className="muted">
              {selected.folderCount === 0 ? 'No folders yet.' : `${selected.folderCount} folder(s).`}
            </p>
          </section>
        ) : (
          <section className="empty">
            <h1>No knowledge base yet</h1>
            <p>Create one on the left, then add the folders you want to search and ask about.</p>
          </section>
        )}
      </main>
    </div>
  );
}

function CreateKbForm() {
  const createKb = useApp((s) => s.createKb);
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  async function submit(e: FormEvent) {
    e.preventDefault();
    const error = await createKb(name);
    setProblem(error);
    if (!error) setName('');
  }
  return (
    <form className="create-kb" onSubmit={(e) => void submit(e)}>
      <label htmlFor="new-kb-name">New knowledge base</label>
      <div className="row">
        <input id="new-kb-name" value={name} placeholder="Name" onChange={(e) => setName(e.target.value)} />
        <button type="submit">Create</button>
      </div>
      {problem && (
        <p role="alert" className="field-error">
          {problem}
        </p>
      )}
    </form>
  );
}
