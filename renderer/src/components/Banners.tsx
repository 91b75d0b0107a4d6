/** Banners over the work area for conditions the person should act on: Ollama down, keyword-only search. */
import { useTranslation } from 'react-i18next';
import type { KnowledgeBase } from '../../../shared/models';
import { useIngest } from '../state/ingest';
import { useKbs } from '../state/kbs';
import { useLlm } from '../state/llm';
import { Icon } from './Icon';

/** The banners that apply now (none most of the time). */
export function Banners({ kb }: { kb: KnowledgeBase | null }) {
  const { t } = useTranslation();
  const { error, clearError } = useKbs();
  return (
    <div className="banners">
      {error && (
        <div role="alert" className="banner error">
          <p>{error}</p>
          <button type="button" className="icon-button" aria-label={t('common.dismiss')} onClick={clearError}>
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
  const { t } = useTranslation();
  const { status, checking, refresh } = useLlm();
  if (!status || (status.reachable && status.model)) return null;
  const title = status.reachable ? t('banners.noModelTitle') : t('banners.downTitle');
  // The core's own message (it names the model to pull) wins over the generic help.
  const help = status.reachable ? (status.message ?? t('banners.noModelHelp')) : t('banners.downHelp', { host: status.host });
  return (
    <section className="banner warning" aria-label={title}>
      <div>
        <p className="banner-title">{title}</p>
        <p>
          <WithCode text={help} /> {t('banners.meanwhile')}
        </p>
      </div>
      <button type="button" onClick={() => void refresh()} disabled={checking}>
        {checking ? t('banners.checking') : t('banners.checkAgain')}
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
  const { t } = useTranslation();
  const reason = useIngest((s) => s.status[kb.id]?.keywordOnly ?? null);
  const reindex = useIngest((s) => s.reindex);
  if (!reason) return null;
  return (
    <section className="banner info" aria-label={t('banners.keywordOnlyLabel')}>
      <div>
        <p className="banner-title">{t('banners.keywordOnlyTitle', { name: kb.name })}</p>
        <p>
          {sentence(reason)} {t('banners.keywordOnlyText')}
        </p>
      </div>
      <button type="button" onClick={() => void reindex(kb.id)}>
        {t('banners.reindex')}
      </button>
    </section>
  );
}
