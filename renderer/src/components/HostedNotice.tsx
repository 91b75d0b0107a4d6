/**
 * Said once per knowledge base: its questions are answered by a provider off this machine, so the passages found for
 * them are sent there. "Understood" records it in the settings (`hostedNoticeSeen`), for every window and host.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { OpResult } from '../../../shared/contract';
import { client } from '../client';
import { useSettings } from '../state/settings';

/** The notice above the conversation, or nothing when the provider is on this machine or the person was told. */
export function HostedNotice({ kbId }: { kbId: string }) {
  const { t } = useTranslation();
  const settings = useSettings((s) => s.settings);
  const save = useSettings((s) => s.save);
  const [active, setActive] = useState<OpResult<'providers.forKb'> | null>(null);
  // Asked again whenever the settings change: the provider, or the notice's state, may have changed.
  useEffect(() => {
    let stale = false;
    void client.invoke('providers.forKb', { kb: kbId }).then((r) => !stale && setActive(r.ok ? r.value : null));
    return () => {
      stale = true;
    };
  }, [kbId, settings]);
  if (!active?.hosted || active.noticeSeen) return null;
  const seen = settings?.hostedNoticeSeen ?? [];
  return (
    <div role="alert" className="hosted-notice" aria-label={t('providers.noticeTitle')}>
      <strong>{t('providers.noticeTitle')}</strong>
      <p>{t('providers.notice', { name: active.name, url: active.baseUrl })}</p>
      <button type="button" onClick={() => void save({ hostedNoticeSeen: [...seen, kbId] })}>
        {t('providers.noticeOk')}
      </button>
    </div>
  );
}
