/**
 * A small badge naming a passage's version status (current, superseded, expired, undated) and label,
 * with what it means on hover: the page that replaces it, or the day it stopped being in force.
 */
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { PassageVersion } from '../../../shared/models';

/** The badge of a passage's version; nothing for a passage whose page has none. */
export function VersionBadge({ version }: { version: PassageVersion | undefined }) {
  const { t } = useTranslation();
  if (!version) return null;
  const status = t(`version.${version.status}`);
  const text = version.label ? t('version.labelled', { status, label: version.label }) : status;
  const title = titleOf(version, t);
  return (
    <span className={`version-badge ${version.status}`} title={title}>
      {text}
    </span>
  );
}

/** What the badge means, shown on hover. */
function titleOf(version: PassageVersion, t: TFunction): string {
  const by = version.supersededBy;
  if (version.status === 'superseded' && by) return t('version.supersededByTitle', { path: by });
  if (version.status === 'expired' && version.expires) return t('version.expiredTitle', { date: version.expires });
  if (version.status === 'superseded' || version.status === 'expired') return t('version.supersededTitle');
  if (version.status === 'undated') return t('version.undatedTitle');
  return t('version.currentTitle');
}
