/**
 * The search-enhancement settings (issue #15): defaults for messages sent without a depth (rewrite follow-ups,
 * queries per search, HyDE, rerank) and the limits every search obeys (most queries, the rerank kill switch).
 */
import { useTranslation } from 'react-i18next';
import { DEFAULT_ENHANCE_SETTINGS, type EnhanceSettings, type Settings } from '../../../shared/settings';
import { useSettings } from '../state/settings';
import { NumberSetting, SelectSetting } from './SettingFields';

type OnOff = 'on' | 'off';
const onOff = (v: boolean): OnOff => (v ? 'on' : 'off');

/** The enhancement fields; each saves the whole `enhance` block with its one change. */
export function SearchEnhanceSettings({ settings }: { settings: Settings }) {
  const { t } = useTranslation();
  const save = useSettings((s) => s.save);
  const e: EnhanceSettings = { ...DEFAULT_ENHANCE_SETTINGS, ...settings.enhance };
  const change = (patch: Partial<EnhanceSettings>) => save({ enhance: { ...e, ...patch } });
  const toggle: readonly (readonly [OnOff, string])[] = [['on', t('settings.on')], ['off', t('settings.off')]];
  return (
    <section className="settings-section" aria-labelledby="settings-enhance">
      <h3 id="settings-enhance">{t('settings.enhance')}</h3>
      <p className="muted">{t('settings.enhanceHelp')}</p>
      <SelectSetting id="setting-enhance-rewrite" label={t('settings.enhanceRewrite')} value={onOff(e.rewrite)} options={toggle} onCommit={(v) => change({ rewrite: v === 'on' })} />
      <NumberSetting
        id="setting-enhance-multi-query"
        label={t('settings.enhanceMultiQuery')}
        help={t('settings.enhanceMultiQueryHelp')}
        value={e.multiQuery}
        onCommit={(multiQuery) => change({ multiQuery })}
      />
      <NumberSetting
        id="setting-enhance-max-multi-query"
        label={t('settings.enhanceMaxMultiQuery')}
        help={t('settings.enhanceMaxMultiQueryHelp')}
        value={e.maxMultiQuery}
        onCommit={(maxMultiQuery) => change({ maxMultiQuery })}
      />
      <SelectSetting id="setting-enhance-hyde" label={t('settings.enhanceHyde')} value={onOff(e.hyde)} options={toggle} onCommit={(v) => change({ hyde: v === 'on' })} />
      <SelectSetting
        id="setting-enhance-rerank"
        label={t('settings.enhanceRerank')}
        value={e.rerank ?? 'none'}
        options={[['none', t('settings.rerankNone')], ['llm', t('settings.rerankLlm')], ['cross-encoder', t('settings.rerankCrossEncoder')]] as const}
        onCommit={(v) => change({ rerank: v === 'none' ? null : v })}
      />
      <SelectSetting
        id="setting-enhance-allow-rerank"
        label={t('settings.enhanceAllowRerank')}
        help={t('settings.enhanceAllowRerankHelp')}
        value={onOff(e.allowRerank)}
        options={toggle}
        onCommit={(v) => change({ allowRerank: v === 'on' })}
      />
    </section>
  );
}
