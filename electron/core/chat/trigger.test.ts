import { describe, expect, it } from 'vitest';
import { shouldSearch, type TriggerReason } from './trigger';

describe('shouldSearch', () => {
  // [message, knowledge base selected, search, reason]
  const rows: [string, boolean, boolean, TriggerReason][] = [
    // no knowledge base wins over everything, even an explicit reference
    ['这是我自媒体创作的文章，总结一下', false, false, 'no_kb'],
    ['[[wiki/a.md]] 说了啥', false, false, 'no_kb'],
    // commands
    ['/help', true, false, 'command'],
    ['/sediment', true, false, 'command'],
    ['  /pdf 导出这一页', true, false, 'command'],
    ['／help', true, false, 'command'],
    ['/help [[wiki/a.md]]', true, false, 'command'],
    ['/etc/hosts 里应该写什么？', true, true, 'default'],
    // explicit references short-circuit the rest
    ['[[wiki/x.md]] 说了啥', true, true, 'explicit_ref'],
    ['[[wiki/a.md]]', true, true, 'explicit_ref'],
    ['你好 [[wiki/a.md]]', true, true, 'explicit_ref'],
    ['[[wiki/a.md]] 怎么用', true, true, 'explicit_ref'],
    ['[[notwiki.md]] 说了啥', true, true, 'default'],
    // too short
    ['嗯', true, false, 'too_short'],
    ['ok', true, false, 'too_short'],
    ['hi!', true, false, 'too_short'],
    ['你好！', true, false, 'too_short'],
    ['谢谢', true, false, 'too_short'],
    ['？？？', true, false, 'too_short'],
    ['👍👍👍', true, false, 'too_short'],
    ['a b', true, false, 'too_short'],
    ['', true, false, 'too_short'],
    // greetings, whole message only
    ['hello', true, false, 'greeting'],
    ['Hello!!!', true, false, 'greeting'],
    ['HELLO ~', true, false, 'greeting'],
    ['Thanks.', true, false, 'greeting'],
    ['thx!!', true, false, 'greeting'],
    ['在吗？', true, false, 'too_short'],
    ['好的。', true, false, 'too_short'],
    ['在吗在吗', true, true, 'default'],
    ['你好啊', true, false, 'greeting'],
    ['你好呀！', true, false, 'greeting'],
    ['谢谢啦~', true, false, 'greeting'],
    ['好的呢', true, false, 'greeting'],
    ['你好吗？', true, false, 'greeting'],
    ['ＨＥＬＬＯ', true, false, 'greeting'],
    ['hello, what does the gateway runbook say?', true, true, 'default'],
    ['谢谢，再查一下网关超时', true, true, 'default'],
    // questions about the app
    ['当前模型是什么', true, false, 'app_question'],
    ['你的模型是什么？', true, false, 'app_question'],
    ['代理怎么设置', true, false, 'app_question'],
    ['这个软件怎么用', true, false, 'app_question'],
    ['界面能换成深色吗', true, false, 'app_question'],
    ['有哪些快捷键', true, false, 'app_question'],
    ['需要登录吗', true, false, 'app_question'],
    ['Where do I put my API key?', true, false, 'app_question'],
    ['where do I set the api-key', true, false, 'app_question'],
    ['apikey goes where', true, false, 'app_question'],
    // everything else searches
    ['这是我自媒体创作的文章，总结一下', true, true, 'default'],
    ['总结一下', true, true, 'default'],
    ['What is E_CONN_RESET?', true, true, 'default'],
    ['OpenClaw 相关页面讲了什么', true, true, 'default'],
    ['api gateway keys rotation', true, true, 'default'],
    ['abc', true, true, 'default'],
  ];

  it.each(rows)('%j (knowledge base %s) → search %s because %s', (message, kbSelected, search, reason) => {
    expect(shouldSearch(message, kbSelected)).toEqual({ search, reason });
  });
});
