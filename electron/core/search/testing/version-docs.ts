/**
 * Two versions of one travel policy, in Chinese (versions named by the file name) and in English
 * (named by front matter, the newer one superseding the older), plus an unrelated page: the fixture
 * of the version-aware ranking tests (search, chat context, e2e). On any day after 2024 the Chinese
 * 2023 edition is superseded and the English v1 expired; the old pages say more about hotels, so
 * fusion alone ranks them first.
 */
export const VERSION_DOCS: Record<string, string> = {
  '差旅报销政策（2023版）.md': [
    '# 差旅报销政策（2023版）',
    '',
    '## 住宿标准',
    '',
    '出差住宿费每晚最高报销 400 元。住宿费报销须提供住宿发票，住宿发票在出差结束后 30 天内提交。',
    '',
    '## 交通',
    '',
    '高铁二等座可以报销。',
    '',
  ].join('\n'),
  '差旅报销政策（2024版）.md': [
    '# 差旅报销政策（2024版）',
    '',
    '## 住宿标准',
    '',
    '出差住宿费每晚最高 500 元，凭发票报销。',
    '',
    '## 交通',
    '',
    '高铁二等座和经济舱机票可以报销。',
    '',
  ].join('\n'),
  'travel-policy-v1.md': [
    '---',
    'title: Travel policy',
    'version: v1',
    'effective: 2023-01-01',
    'expires: 2023-12-31',
    '---',
    '# Travel policy',
    '',
    '## Hotels',
    '',
    'Hotel rooms are reimbursed up to 120 dollars per night. Keep the hotel receipt: hotel costs without a receipt are not reimbursed.',
    '',
  ].join('\n'),
  'travel-policy-v2.md': [
    '---',
    'title: Travel policy',
    'version: v2',
    'effective: 2024-01-01',
    'supersedes: travel-policy-v1.md',
    '---',
    '# Travel policy',
    '',
    '## Hotels',
    '',
    'Rooms are reimbursed up to 150 dollars per night with a receipt.',
    '',
  ].join('\n'),
  'retry.md': '# Retries\n\nThe client retries a failed request three times, one second apart.\n',
};
