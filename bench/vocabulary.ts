/**
 * Word lists for the generated notes, drawn with Zipf's law as real text is: a few hundred real
 * words (function words first, then the words of runbooks and design notes) are the frequent head,
 * and thousands of generated pseudo-words the long tail. Without the tail every query term would
 * occur in a fifth of all chunks and keyword search would look far slower than on real notes.
 */
import { Random } from './random';

const ENGLISH_HEAD = `
  the a of to and in is for on that with it by we this be are as from or not was when after an
  they can will should have has but if so because before during while were been had would could may
  request response timeout retry connection pool gateway service cluster node deploy rollback release config
  setting cache index search query result page chunk vector embedding model token latency throughput error
  warning failure incident outage alert metric dashboard log trace span user account session login password
  permission role policy team owner review design proposal decision meeting note summary action item backlog
  migration schema table column database replica primary backup restore snapshot volume disk memory cpu thread
  worker queue message event stream batch job schedule cron pipeline build test coverage lint bundle package
  version upgrade dependency library module interface contract client server browser desktop window folder file
  document wiki knowledge answer citation passage source quote evidence network socket port host proxy firewall
  certificate key secret vault rotation audit compliance customer ticket support escalation priority severity
  runbook playbook checklist step command script shell terminal editor keyboard shortcut feature flag rollout
  canary traffic region zone budget capacity scaling limit quota rate throttle backoff jitter health
  probe readiness liveness restart crash panic exception stack frame leak garbage collection profile
  benchmark regression improvement slow fast stable flaky reliable consistent eventual strong transaction commit
  lock deadlock contention shard partition value store object bucket upload download sync conflict merge
`.trim().split(/\s+/);

const CHINESE_HEAD = `
  的 我们 这个 需要 可以 已经 如果 因为 所以 但是 然后 以及 或者 没有 出现 发现 解决 问题 原因 结果
  超时 连接 重试 网关 配置 部署 服务 数据库 日志 错误 用户 请求 响应 缓存 索引 搜索 知识 文档 模型 向量
  集群 节点 回滚 发布 版本 升级 依赖 接口 客户端 服务器 浏览器 文件夹 文件 引用 段落 来源 证据 网络 端口
  代理 防火墙 证书 密钥 轮换 审计 合规 客户 工单 支持 优先级 严重程度 操作手册 检查清单 步骤 命令
  脚本 终端 编辑器 快捷键 功能开关 灰度发布 流量 区域 延迟 容量 扩容 限流 退避 健康检查 重启 崩溃 异常
  内存泄漏 垃圾回收 性能分析 基准测试 回归 改进 稳定 可靠 一致性 事务 提交 死锁 分片 分区 存储 上传 下载
  同步 冲突 合并 会议 纪要 决策 设计 方案 评审 负责人 团队 指标 告警 监控 仪表盘 故障 事故 复盘 根因
  他们 那个 应该 正在 影响 范围 时间 今天 明天 上周 下周 目前 之后 之前 所有 部分 每次 一次 多次 最后
`.trim().split(/\s+/);

const IDENTIFIER_HEAD = [
  'E_CONN_RESET', 'E_TIMEOUT', 'ERR_SSL_PROTOCOL', 'E_QUOTA_EXCEEDED', 'ECONNREFUSED', 'ENOSPC', 'HTTP_503',
  'api-gateway', 'auth-service', 'billing-worker', 'search-indexer', 'rate-limiter', 'config-server', 'kb-sync',
  'v1/chat', 'v1/embeddings', 'v2/search', 'v1/users/:id', '/healthz', '/metrics', 'api/v3/orders',
  'getUserName', 'retryWithBackoff', 'maxConnections', 'HTTPServer', 'connection_pool', 'max_retries',
  'timeout_ms', 'us-east-1', 'cn-north-4', 'redis-cluster-02', 'pg-primary', 'k8s.io/client-go', 'user@example.com',
];

const SYLLABLES = 'ba ka ra lo mi ne to ver stra der pel zen mor tal fin gra sho len dor pri sel cor tun vel bri nom quo sim dex'.split(' ');

/** Words sampled by Zipf's law over their rank: P(rank r) ∝ 1 / (r + 1)^exponent. */
export class Vocabulary {
  private readonly cumulative: Float64Array;

  /** `words` in rank order (most frequent first); `exponent` about 1 for natural text (0.5–2). */
  constructor(readonly words: readonly string[], exponent = 1) {
    this.cumulative = new Float64Array(words.length);
    let sum = 0;
    for (let r = 0; r < words.length; r++) this.cumulative[r] = sum += 1 / (r + 1) ** exponent;
  }

  /** A word of any rank. */
  word(rng: Random): string {
    return this.fromRank(rng, 0);
  }

  /** A word ranked `skip` or lower: what a person searches for (not "the", not "的"). */
  contentWord(rng: Random, skip = 40): string {
    return this.fromRank(rng, Math.min(skip, this.words.length - 1));
  }

  private fromRank(rng: Random, first: number): string {
    const below = first > 0 ? this.cumulative[first - 1]! : 0;
    const target = below + rng.next() * (this.cumulative[this.cumulative.length - 1]! - below);
    let lo = first;
    let hi = this.cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.cumulative[mid]! < target) lo = mid + 1;
      else hi = mid;
    }
    return this.words[lo]!;
  }
}

/** `count` distinct made-up words of 2–4 syllables, after the `head` words. */
function withTail(head: readonly string[], count: number, make: (rng: Random) => string, seed: number): string[] {
  const rng = new Random(seed);
  const words = new Set(head);
  while (words.size < head.length + count) words.add(make(rng));
  return [...words];
}

function pseudoEnglish(rng: Random): string {
  let word = '';
  for (let n = rng.between(2, 4); n > 0; n--) word += rng.pick(SYLLABLES);
  return word;
}

// A pool of 2,500 characters stands in for the few thousand in everyday use.
const HAN_POOL = Array.from({ length: 2500 }, (_, i) => String.fromCharCode(0x4e00 + ((i * 7919) % 0x4000)));

function pseudoChinese(rng: Random): string {
  let word = '';
  for (let n = rng.between(2, 3); n > 0; n--) word += rng.pick(HAN_POOL);
  return word;
}

function pseudoIdentifier(rng: Random): string {
  const w = () => pseudoEnglish(rng);
  switch (rng.int(5)) {
    case 0:
      return `E_${w().toUpperCase()}_${w().toUpperCase()}`;
    case 1:
      return `${w()}-${w()}`;
    case 2:
      return `v${rng.between(1, 3)}/${w()}`;
    case 3:
      return `${w()}${w().replace(/^./, (c) => c.toUpperCase())}`;
    default:
      return `${w()}_${w()}`;
  }
}

/** English words: 244 real ones (function words first), then 20,000 made-up ones. */
export const ENGLISH = new Vocabulary(withTail(ENGLISH_HEAD, 20_000, pseudoEnglish, 11));
/** Chinese words: 148 real ones, then 8,000 made-up two- and three-character ones. */
export const CHINESE = new Vocabulary(withTail(CHINESE_HEAD, 8_000, pseudoChinese, 12));
/** Identifiers (error codes, service names, API paths, camelCase names): 34 real-looking, then 3,000 more. */
export const IDENTIFIERS = new Vocabulary(withTail(IDENTIFIER_HEAD, 3_000, pseudoIdentifier, 13), 0.8);
