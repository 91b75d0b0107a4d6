/**
 * Banners over the work area for conditions the person should act on: Ollama down, keyword-only search
 * because the chosen embedding model could not be had. Each is one compact line in the UI's language
 * (the core's own English text only as a detail) and can be dismissed for the session.
 */
import { useTranslation } from 'react-i18next';
import { create } from 'zustand';
import type { KnowledgeBase } from '../../../shared/models';
import { useIngest } from '../state/ingest';
import { useKbs } from '../state/kbs';
import { useLlm } from '../state/llm';
import { useUi } from '../state/ui';
import { Icon } from './Icon';
import { spoken } from '../lib/spoken';

/** Banners dismissed in this session, by key; a reload brings them back (the condition may still hold). */
const useDismissed = create<{ keys: string[]; dismiss(key: string): void }>((set) => ({
  keys: [],
  dismiss: (key) => set((s) => ({ keys: [...s.keys, key] })),
}));

/** The close button every banner has. */
function Dismiss({ what }: { what: string }) {
  const { t } = useTranslation();
  const dismiss = useDismissed((s) => s.dismiss);
  return (
    <button
      type="button"
      className="icon-button small"
      aria-label={t('banners.dismiss')}
      title={t('banners.dismiss')}
      onClick={() => dismiss(what)}
    >
      <Icon name="close" size={14} />
    </button>
  );
}

/** What to do, and the core's own words (in the UI's language when they have a code), folded away so a banner stays
 *  one or two lines. */
function Detail({ help, text }: { help?: string; text: string | null | undefined }) {
  const { t } = useTranslation();
  if (!help && !text) return null;
  return (
    <details className="banner-detail">
      <summary>{help ? t('banners.howToFix') : t('banners.details')}</summary>
      {help && (
        <p>
          <WithCode text={help} />
        </p>
      )}
      {text && (
        <p>
          <WithCode text={text} />
        </p>
      )}
    </details>
  );
}

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
  const key = `ollama:${status?.reachable ? 'no-model' : 'down'}`;
  const dismissed = useDismissed((s) => s.keys.includes(key));
  if (!status || (status.reachable && status.model) || dismissed) return null;
  // Another provider answering by default: its own name, and the core's message is the whole story.
  const provider = status.provider;
  const title = provider ? t('providers.statusDown', { provider }) : status.reachable ? t('banners.noModelTitle') : t('banners.downTitle');
  const help = provider ? undefined : status.reachable ? t('banners.noModelHelp') : t('banners.downHelp', { host: status.host });
  return (
    <section className="banner warning" aria-label={title}>
      <div className="banner-body">
        <p>
          <strong className="banner-title">{title}</strong> {t('banners.meanwhile')}
        </p>
        {/* The core's message names the model to pull: a detail. */}
        <Detail help={help} text={status.message && spoken(t, status.message, status.said)} />
      </div>
      <button type="button" onClick={() => void refresh()} disabled={checking}>
        {checking ? t('banners.checking') : t('banners.checkAgain')}
      </button>
      <Dismiss what={key} />
    </section>
  );
}

/** Text whose `backticked` parts are commands, shown as code. */
function WithCode({ text }: { text: string }) {
  return (
    <>
      {text.split('`').map((part, i) => (i % 2 === 1 ? <code key={i}>{part}</code> : <span key={i}>{part}</span>))}
    </>
  );
}

/**
 * Only when the chosen model could not be had: a person who chose "no embedding model" asked for
 * keyword search and is not told about it again. The button opens the setting that fixes it.
 */
function KeywordOnlyBanner({ kb }: { kb: KnowledgeBase }) {
  const { t } = useTranslation();
  const status = useIngest((s) => s.status[kb.id]);
  const openSettings = useUi((s) => s.openSettings);
  const key = `keyword-only:${kb.id}`;
  const dismissed = useDismissed((s) => s.keys.includes(key));
  if (status?.keywordOnlyCode !== 'model_unavailable' || dismissed) return null;
  return (
    <section className="banner info" aria-label={t('banners.keywordOnlyLabel')}>
      <div className="banner-body">
        <p>
          <strong className="banner-title">{t('banners.keywordOnlyTitle', { name: kb.name })}</strong>{' '}
          {t('banners.keywordOnlyText')}
        </p>
        <Detail text={status.keywordOnly && spoken(t, status.keywordOnly, status.said)} />
      </div>
      <button type="button" onClick={openSettings}>
        {t('banners.openEmbeddingSettings')}
      </button>
      <Dismiss what={key} />
    </section>
  );
}
