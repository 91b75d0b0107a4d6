/** Banners over the work area for conditions the person should act on: Ollama down, keyword-only search. */
import type { KnowledgeBase } from '../../../shared/models';
import { useIngest } from '../state/ingest';
import { useKbs } from '../state/kbs';
import { useLlm } from '../state/llm';
import { Icon } from './Icon';

/** The banners that apply now (none most of the time). */
export function Banners({ kb }: { kb: KnowledgeBase | null }) {
  const { error, clearError } = useKbs();
  return (
    <div className="banners">
      {error && (
        <div role="alert" className="banner error">
          <p>{error}</p>
          <button type="button" className="icon-button" aria-label="Dismiss" onClick={clearError}>
            <Icon name="close" />
          </button>
        </div>
      )}
      <OllamaBanner />
      {kb && <KeywordOnlyBanner kb={kb} />}
    </div>
  );
}

function OllamaBanner() {
  const { status, checking, refresh } = useLlm();
  if (!status || (status.reachable && status.model)) return null;
  const title = status.reachable ? 'Ollama has no model to answer with' : 'Ollama is not reachable';
  const help = status.reachable
    ? (status.message ?? 'Pull a model: `ollama pull qwen3:4b`, then check again.')
    : `Sift looks for Ollama at ${status.host}. Start it with \`ollama serve\` and pull a model with \`ollama pull qwen3:4b\`, then check again.`;
  return (
    <section className="banner warning" aria-label={title}>
      <div>
        <p className="banner-title">{title}</p>
        <p>
          <WithCode text={help} /> Until then, questions are answered with the best matching passages, quoted and cited.
        </p>
      </div>
      <button type="button" onClick={() => void refresh()} disabled={checking}>
        {checking ? 'Checking…' : 'Check again'}
      </button>
    </section>
  );
}

/** A reason as a sentence: capitalised, ending with a full stop. */
function sentence(text: string): string {
  const t = text.trim();
  return `${t.charAt(0).toUpperCase()}${t.slice(1)}${/[.!?。]$/.test(t) ? '' : '.'}`;
}

/** Text whose `backticked` parts are commands, shown as code. */
function WithCode({ text }: { text: string }) {
  return (
    <>
      {text.split('`').map((part, i) => (i % 2 === 1 ? <code key={i}>{part}</code> : <span key={i}>{part}</span>))}
    </>
  );
}

function KeywordOnlyBanner({ kb }: { kb: KnowledgeBase }) {
  const reason = useIngest((s) => s.status[kb.id]?.keywordOnly ?? null);
  const reindex = useIngest((s) => s.reindex);
  if (!reason) return null;
  return (
    <section className="banner info" aria-label="Keyword-only search">
      <div>
        <p className="banner-title">“{kb.name}” searches by keywords only</p>
        <p>
          {sentence(reason)} Search still finds exact words; to also find passages by meaning, make the embedding model available (check the network or the
          model folder) and re-index.
        </p>
      </div>
      <button type="button" onClick={() => void reindex(kb.id)}>
        Re-index
      </button>
    </section>
  );
}
