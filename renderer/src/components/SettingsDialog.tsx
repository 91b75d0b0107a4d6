/**
 * The settings dialog. Every field saves itself through `settings.set`; the core validates and its
 * message shows next to the field it refused. Language and theme apply at once.
 */
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { Settings } from '../../../shared/settings';
import { useSettings } from '../state/settings';
import { useUi } from '../state/ui';
import { EmbeddingSettings } from './EmbeddingSettings';
import { McpSettings } from './McpSettings';
import { Modal } from './Modal';
import { OllamaSettings } from './OllamaSettings';
import { ProvidersSettings } from './ProvidersSettings';
import { NumberSetting, SelectSetting } from './SettingFields';
import { Problem } from './Problem';
import { SearchEnhanceSettings } from './SearchEnhanceSettings';

/** The settings, in a modal dialog. */
export function SettingsDialog() {
  const { t } = useTranslation();
  const close = useUi((s) => s.closeSettings);
  const { settings, error, load } = useSettings();
  // Read them fresh: another host (the CLI) may have changed them without an event reaching here.
  useEffect(() => void load(), [load]);
  return (
    <Modal title={t('settings.title')} className="settings-dialog" onClose={close}>
      <div className="settings-body">
        <Problem message={error} />
        {!settings ? !error && <p className="muted">{t('common.loading')}</p> : <SettingsForm settings={settings} />}
      </div>
    </Modal>
  );
}

function SettingsForm({ settings }: { settings: Settings }) {
  const { t } = useTranslation();
  const save = useSettings((s) => s.save);
  return (
    <>
      <OllamaSettings settings={settings} />
      <ProvidersSettings settings={settings} />
      <section className="settings-section" aria-labelledby="settings-answers">
        <h3 id="settings-answers">{t('settings.answers')}</h3>
        <NumberSetting
          id="setting-context"
          label={t('settings.contextPercent')}
          help={t('settings.contextPercentHelp')}
          value={settings.contextPercent}
          onCommit={(contextPercent) => save({ contextPercent })}
        />
        <NumberSetting
          id="setting-search-budget"
          label={t('settings.searchBudget')}
          help={t('settings.searchBudgetHelp')}
          value={settings.searchBudget}
          onCommit={(searchBudget) => save({ searchBudget })}
        />
        <NumberSetting id="setting-top-k" label={t('settings.topK')} help={t('settings.topKHelp')} value={settings.topK} onCommit={(topK) => save({ topK })} />
        <NumberSetting
          id="setting-max-answer-tokens"
          label={t('settings.maxAnswerTokens')}
          help={t('settings.maxAnswerTokensHelp')}
          value={settings.maxAnswerTokens}
          onCommit={(maxAnswerTokens) => save({ maxAnswerTokens })}
        />
        <NumberSetting
          id="setting-max-turn-seconds"
          label={t('settings.maxTurnSeconds')}
          help={t('settings.maxTurnSecondsHelp')}
          value={settings.maxTurnSeconds}
          onCommit={(maxTurnSeconds) => save({ maxTurnSeconds })}
        />
      </section>
      <SearchEnhanceSettings settings={settings} />
      <section className="settings-section" aria-labelledby="settings-indexing">
        <h3 id="settings-indexing">{t('settings.indexing')}</h3>
        <NumberSetting
          id="setting-max-file"
          label={t('settings.maxFileMB')}
          help={t('settings.maxFileMBHelp')}
          value={settings.maxFileMB}
          onCommit={(maxFileMB) => save({ maxFileMB })}
        />
        <SelectSetting
          id="setting-ocr"
          label={t('settings.ocr')}
          help={t('settings.ocrHelp')}
          value={settings.ocr === false ? 'off' : 'on'}
          options={[
            ['on', t('settings.on')],
            ['off', t('settings.off')],
          ]}
          onCommit={(v) => save({ ocr: v === 'on' })}
        />
        <EmbeddingSettings saved={settings.embedding} />
      </section>
      <McpSettings />
      <section className="settings-section" aria-labelledby="settings-appearance">
        <h3 id="settings-appearance">{t('settings.appearance')}</h3>
        <SelectSetting
          id="setting-language"
          label={t('settings.language')}
          value={settings.language}
          // Each language is named in itself, so it can be found whatever the UI shows now.
          options={[
            ['system', t('settings.languageSystem')],
            ['en', 'English'],
            ['zh-CN', '简体中文'],
          ]}
          onCommit={(language) => save({ language })}
        />
        <SelectSetting
          id="setting-theme"
          label={t('settings.theme')}
          value={settings.theme}
          options={[
            ['system', t('settings.themeSystem')],
            ['light', t('settings.themeLight')],
            ['dark', t('settings.themeDark')],
          ]}
          onCommit={(theme) => save({ theme })}
        />
      </section>
    </>
  );
}
