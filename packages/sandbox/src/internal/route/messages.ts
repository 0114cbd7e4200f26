/**
 * The message of every code the sandbox's routes answer, in both languages
 * of the `locale` header: English (`en-US`, the default) and Chinese
 * (`zh-CN`). `{0}`, `{1}`… stand for the values the exchange fills in.
 *
 * The English texts are the exchange's (Bitget's error-code table and live
 * answers). The Chinese texts are plain, faithful translations of them: no
 * captured zh-CN answer of Bitget was found for these codes, so they are
 * not the exchange's exact wording (the values filled in stay as sent).
 *
 * @internal
 */

/** A message in each language. */
interface Texts {
  readonly en: string
  readonly zh: string
}

/** The messages by code. */
const table = {
  "00001": {
    en: "startTime and endTime interval cannot be greater than {0} days",
    zh: "startTime与endTime的间隔不能大于{0}天"
  },
  "25000": { en: "System error, please try again later", zh: "系统错误，请稍后重试" },
  "25001": { en: "Operation timed out", zh: "操作超时" },
  "25003": { en: "Concurrent operation, please retry", zh: "并发操作，请重试" },
  "40001": { en: "ACCESS_KEY cannot be empty", zh: "ACCESS_KEY不能为空" },
  "40002": { en: "ACCESS_SIGN cannot be empty", zh: "ACCESS_SIGN不能为空" },
  "40005": { en: "Invalid ACCESS_TIMESTAMP", zh: "无效的ACCESS_TIMESTAMP" },
  "40006": { en: "Invalid ACCESS_KEY", zh: "无效的ACCESS_KEY" },
  "40007": {
    en: "Invalid Content_Type, please use `application/json` format",
    zh: "无效的Content_Type，请使用`application/json`格式"
  },
  "40008": { en: "Request timestamp expired", zh: "请求时间戳已过期" },
  "40009": { en: "sign signature error", zh: "签名错误" },
  "40011": { en: "ACCESS_PASSPHRASE cannot be empty", zh: "ACCESS_PASSPHRASE不能为空" },
  "40012": { en: "apikey/password is incorrect", zh: "apikey或密码不正确" },
  "40014": { en: "Incorrect permissions, need {0} permissions", zh: "权限不正确，需要{0}权限" },
  "40015": { en: "System is abnormal, please try again later", zh: "系统异常，请稍后重试" },
  "40017": { en: "Parameter verification failed {0}", zh: "参数校验失败 {0}" },
  "40019": { en: "Parameter {0} cannot be empty", zh: "参数{0}不能为空" },
  "40020": { en: "Parameter {0} error", zh: "参数{0}错误" },
  "40034": { en: "Parameter {0} does not exist", zh: "参数{0}不存在" },
  // the table's "{0} should be between {1}", with the bounds as two values ("1 and 500" in English)
  "40053": {
    en: "Value range verification failed: {0} should be between {1} and {2}",
    zh: "数值范围校验失败：{0}应在{1}到{2}之间"
  },
  "40099": { en: "exchange environment is incorrect", zh: "交易环境不正确" },
  "40200": { en: "Server upgrade, please try again later", zh: "服务升级中，请稍后重试" },
  "40704": { en: "Can only check the data of the last three months", zh: "只能查询最近三个月的数据" },
  "40705": { en: "The start and end time cannot exceed {0} days", zh: "开始与结束时间的间隔不能超过{0}天" },
  "40725": { en: "service return an error", zh: "服务返回错误" },
  "40837": {
    en: "There is no position in this position, so stop-profit and stop-loss orders cannot be made",
    zh: "当前没有仓位，无法下止盈止损单"
  },
  "40890": {
    en: "The order of stop-profit and stop-loss for this contract has reached the upper limit",
    zh: "该合约的止盈止损委托已达上限"
  },
  "40912": { en: "single cancel cannot exceed {0}", zh: "单次撤单不能超过{0}个" },
  "40915": { en: "Long position take profit price please > mark price", zh: "多仓止盈价请大于标记价格" },
  "40917": { en: "Stop price for long positions please < mark price {0}", zh: "多仓止损价请小于标记价格 {0}" },
  "40924": { en: "orderId and clientOid must have one", zh: "orderId和clientOid必须填写一个" },
  "43001": { en: "The order does not exist", zh: "订单不存在" },
  "43023": { en: "Insufficient position, can not set profit or stop loss", zh: "仓位不足，无法设置止盈或止损" },
  "43030": { en: "Take profit order already existed", zh: "止盈单已存在" },
  "43031": { en: "Stop loss order already existed", zh: "止损单已存在" },
  "45001": { en: "Unknown error", zh: "未知错误" },
  "45061": { en: "TP price of short position < Current price {0}", zh: "空仓止盈价需小于当前价格 {0}" },
  "45122": { en: "Short position stop loss price please > mark price {0}", zh: "空仓止损价请大于标记价格 {0}" },
  "60001": { en: "StartTime not empty", zh: "开始时间不能为空" },
  "70008": {
    en: "The time interval between startTime and endTime must be within {0} days",
    zh: "startTime与endTime的时间间隔必须在{0}天之内"
  }
} as const satisfies Readonly<Record<string, Texts>>

/**
 * A code the table holds.
 */
export type Code = keyof typeof table

/** A template with its `{n}` filled in from `values`. */
const fill = (template: string, values: ReadonlyArray<string | number>): string =>
  template.replace(/\{(\d+)\}/g, (placeholder, index: string) => {
    const value = values[Number(index)]
    return value === undefined ? placeholder : String(value)
  })

/** The English message of a code, with its values filled in. */
export const english = (code: Code, ...values: ReadonlyArray<string | number>): string => fill(table[code].en, values)

/** The values an English message filled into its template; `undefined` when the message is not of that template. */
const valuesIn = (template: string, message: string): ReadonlyArray<string> | undefined => {
  const pattern = template
    .split(/\{\d+\}/)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join("(.*?)")
  const match = new RegExp(`^${pattern}$`, "s").exec(message)
  return match === null ? undefined : match.slice(1)
}

/** The English message of a code without values, `undefined` for a code the table does not hold. */
export const englishOf = (code: string): string | undefined =>
  Object.hasOwn(table, code) ? table[code as Code].en : undefined

/** Whether a `locale` header asks for Chinese (`zh-CN`, in any case, `_` or `-`). */
const chinese = (locale: string | undefined): boolean => locale?.toLowerCase().replace("_", "-") === "zh-cn"

/**
 * The message of an error answer in the language of the `locale` header: the
 * Chinese text of its code, with the values the English message filled in;
 * the English message as it is for any other locale, or for a code or text
 * the table does not know.
 */
export const localize = (code: string, message: string, locale: string | undefined): string => {
  if (!chinese(locale) || !Object.hasOwn(table, code)) return message
  const texts: Texts = table[code as Code]
  const values = valuesIn(texts.en, message)
  return values === undefined ? message : fill(texts.zh, values)
}
