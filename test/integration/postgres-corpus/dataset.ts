/**
 * The small shared dataset of the Postgres comparison corpus, as data: each side builds its own DDL
 * from the logical column types. It is shaped to catch dialect differences: NULLs in keys and
 * values, ties, negative numbers, fractional seconds, unicode text, JSON with nesting and nulls,
 * a self-referencing hierarchy and a customer without orders.
 */

export type ColumnType = 'integer' | 'bigint' | 'decimal' | 'double' | 'text' | 'boolean' | 'date' | 'timestamp' | 'timestamptz' | 'json' | 'text[]';
export type Cell = string | number | boolean | null | readonly string[] | Record<string, unknown> | readonly unknown[];

export interface Table {
  name: string;
  columns: ReadonlyArray<readonly [name: string, type: ColumnType]>;
  rows: ReadonlyArray<readonly Cell[]>;
}

const customers: Table = {
  name: 'customers',
  columns: [
    ['id', 'integer'],
    ['name', 'text'],
    ['email', 'text'],
    ['country', 'text'],
    ['city', 'text'],
    ['signup_date', 'date'],
    ['tier', 'text'],
    ['balance', 'decimal'],
    ['referred_by', 'integer'],
    ['tags', 'text[]'],
  ],
  rows: [
    [1, 'Ada Lovelace', 'ada@example.com', 'GB', 'London', '2023-01-15', 'gold', 1250.5, null, ['vip', 'early']],
    [2, 'José Martínez', 'jose@example.es', 'ES', 'Madrid', '2023-02-01', 'silver', -75.25, 1, ['early']],
    [3, 'Zoë Kravitz', 'zoe@example.com', 'US', 'New York', '2023-02-01', 'gold', 0, 1, []],
    [4, 'Łukasz Nowak', 'lukasz@example.pl', 'PL', 'Kraków', '2023-03-10', null, 310, 2, ['b2b']],
    [5, '李雷', 'lilei@example.cn', 'CN', 'Beijing', '2023-04-22', 'bronze', 42.42, 2, null],
    [6, "Conan O'Brien", 'conan@example.com', 'US', 'Boston', '2023-05-05', 'silver', -310, 3, ['vip']],
    [7, 'Grace Hopper', null, 'US', 'Arlington', '2023-06-30', 'gold', 9999.99, null, ['vip', 'b2b']],
    [8, 'Émile Zola', 'emile@example.fr', 'FR', null, '2023-07-14', 'bronze', 15.5, 4, ['early', 'b2b']],
    [9, 'Alan Turing', 'alan@example.com', 'GB', 'Manchester', '2023-09-01', 'silver', 15.5, 7, []],
    [10, 'Nobody Orders', 'nobody@example.com', null, null, '2024-01-01', null, null, null, null],
  ],
};

const products: Table = {
  name: 'products',
  columns: [
    ['id', 'integer'],
    ['sku', 'text'],
    ['name', 'text'],
    ['category', 'text'],
    ['price', 'decimal'],
    ['weight_kg', 'double'],
    ['active', 'boolean'],
    ['attributes', 'json'],
  ],
  rows: [
    [1, 'KB-01', 'Keyboard', 'hardware', 49.99, 0.8, true, { color: 'black', sizes: ['S', 'M'], dims: { w: 45, h: 3 } }],
    [2, 'MS-01', 'Mouse', 'hardware', 19.99, 0.1, true, { color: 'white', wireless: true }],
    [3, 'MN-27', 'Monitor 27"', 'hardware', 249, 5.25, true, { color: 'black', dims: { w: 61, h: 36 }, ports: ['hdmi', 'dp'] }],
    [4, 'SW-PRO', 'Pro Licence', 'software', 120, 0, true, { seats: 5, tags: null }],
    [5, 'SW-BAS', 'Basic Licence', 'software', 19.99, 0, false, {}],
    [6, 'CB-USB', 'USB Cable', 'accessories', 4.5, 0.05, true, { color: null, length_m: 1.5 }],
    [7, 'MUG', 'Coffee Mug ☕', null, 9.75, 0.35, true, { color: 'white', sizes: [] }],
    [8, 'OLD-1', 'Discontinued Thing', 'hardware', 0.01, -1, false, null],
  ],
};

const orders: Table = {
  name: 'orders',
  columns: [
    ['id', 'integer'],
    ['customer_id', 'integer'],
    ['ordered_at', 'timestamptz'],
    ['status', 'text'],
    ['shipping', 'decimal'],
    ['discount_pct', 'double'],
    ['note', 'text'],
  ],
  rows: [
    [101, 1, '2024-01-03 09:15:00+00', 'shipped', 5, 0, null],
    [102, 1, '2024-01-20 18:45:30.25+00', 'shipped', 0, 10, 'gift wrap'],
    [103, 2, '2024-01-31 23:59:59.999999+00', 'cancelled', null, null, 'changed mind'],
    [104, 3, '2024-02-14 12:00:00+00', 'shipped', 7.5, 5, 'Valentine ❤'],
    [105, 3, '2024-02-29 08:30:00+00', 'refunded', 7.5, 0, null],
    [106, 4, '2024-03-01 00:00:00+00', 'shipped', 12, 15.5, null],
    [107, 5, '2024-03-15 14:20:10.5+00', 'pending', 3, null, '请尽快发货'],
    [108, 6, '2024-03-15 14:20:10.5+00', 'shipped', 3, 0, null],
    [109, 1, '2024-04-02 10:00:00+00', 'shipped', 5, 0, null],
    [110, 7, '2024-04-30 16:00:00+00', 'pending', null, 20, 'call before delivery'],
    [111, 8, '2024-05-05 05:05:05+00', 'shipped', 0, 0, null],
    [112, 9, '2024-05-31 21:00:00+00', 'cancelled', 4, null, null],
    [113, 2, '2024-06-01 07:45:00+00', 'shipped', 5, 2.5, null],
    [114, null, '2024-06-15 11:11:11+00', 'pending', 0, null, 'guest checkout'],
    [115, 4, '2024-07-04 19:30:00+00', 'shipped', 12, 0, null],
    [116, 3, '2024-07-04 19:30:00+00', null, 7.5, 0, 'status missing'],
  ],
};

const orderItems: Table = {
  name: 'order_items',
  columns: [
    ['order_id', 'integer'],
    ['line', 'integer'],
    ['product_id', 'integer'],
    ['quantity', 'integer'],
    ['unit_price', 'decimal'],
  ],
  rows: [
    [101, 1, 1, 1, 49.99],
    [101, 2, 2, 2, 19.99],
    [102, 1, 3, 1, 249],
    [102, 2, 6, 3, 4.5],
    [103, 1, 4, 1, 120],
    [104, 1, 7, 4, 9.75],
    [104, 2, 2, 1, 17.99],
    [105, 1, 5, 2, 19.99],
    [106, 1, 3, 2, 239],
    [106, 2, 1, 2, 49.99],
    [106, 3, 6, 5, 4.5],
    [107, 1, 4, 3, 120],
    [108, 1, 7, 1, 9.75],
    [109, 1, 2, 1, 19.99],
    [109, 2, 6, 10, 4],
    [110, 1, 3, 1, 249],
    [110, 2, 4, 1, 99],
    [111, 1, 1, 1, 49.99],
    [112, 1, 8, 100, 0.01],
    [113, 1, 5, 1, 19.99],
    [113, 2, 7, 2, 9.75],
    [114, 1, 6, 1, 4.5],
    [115, 1, 1, 1, 44.99],
    [115, 2, 2, 1, 19.99],
    [115, 3, 7, 6, 9.75],
    [116, 1, 4, 2, 120],
  ],
};

const events: Table = {
  name: 'events',
  columns: [
    ['id', 'bigint'],
    ['customer_id', 'integer'],
    ['kind', 'text'],
    ['occurred_at', 'timestamp'],
    ['payload', 'json'],
    ['score', 'double'],
  ],
  rows: [
    [1, 1, 'login', '2024-01-03 09:00:00', { device: 'desktop', ok: true }, 1],
    [2, 1, 'view', '2024-01-03 09:05:12.5', { page: '/products/1', ms: 1200 }, 0.5],
    [
      3,
      1,
      'purchase',
      '2024-01-03 09:15:00',
      {
        order: 101,
        items: [
          { sku: 'KB-01', qty: 1 },
          { sku: 'MS-01', qty: 2 },
        ],
        total: 89.97,
      },
      10,
    ],
    [4, 2, 'login', '2024-01-31 23:50:00', { device: 'mobile', ok: false, reason: 'bad password' }, -1],
    [5, 2, 'login', '2024-01-31 23:51:30', { device: 'mobile', ok: true }, 1],
    [6, 3, 'view', '2024-02-14 11:58:00.123456', { page: '/products/7', ms: 300 }, 0.5],
    [
      7,
      3,
      'purchase',
      '2024-02-14 12:00:00',
      {
        order: 104,
        items: [
          { sku: 'MUG', qty: 4 },
          { sku: 'MS-01', qty: 1 },
        ],
        total: 56.99,
        coupon: null,
      },
      10,
    ],
    [8, null, 'view', '2024-02-20 10:00:00', { page: '/', ms: 80, utm: { source: 'ads', campaign: 'spring' } }, 0.25],
    [
      9,
      4,
      'purchase',
      '2024-03-01 00:00:00',
      {
        order: 106,
        items: [
          { sku: 'MN-27', qty: 2 },
          { sku: 'KB-01', qty: 2 },
          { sku: 'CB-USB', qty: 5 },
        ],
        total: 600.48,
      },
      10,
    ],
    [10, 5, 'view', '2024-03-15 14:00:00', { page: '/products/4', ms: 2500 }, 0.5],
    [11, 5, 'purchase', '2024-03-15 14:20:10.5', { order: 107, items: [{ sku: 'SW-PRO', qty: 3 }], total: 360 }, 10],
    [12, 6, 'purchase', '2024-03-15 14:20:10.5', { order: 108, items: [{ sku: 'MUG', qty: 1 }], total: 9.75 }, 10],
    [13, 7, 'support', '2024-04-01 09:30:00', { topic: 'billing', priority: 2, tags: ['refund', 'urgent'] }, -2.5],
    [14, 7, 'support', '2024-04-01 09:45:00', { topic: 'billing', priority: 1, tags: ['urgent'] }, -2.5],
    [15, 8, 'login', '2024-05-05 05:00:00', { device: 'tablet', ok: true }, 1],
    [16, 9, 'logout', '2024-05-31 21:30:00', {}, 0],
    [17, null, 'view', '2024-06-15 11:00:00', { page: '/checkout', ms: null }, null],
    [18, 1, 'view', '2024-06-30 23:59:59.999999', { page: '/products/3', ms: 950 }, 0.5],
    [19, 3, 'login', '2024-07-04 19:00:00', { device: 'desktop', ok: true }, 1],
    [20, 3, 'purchase', '2024-07-04 19:30:00', { order: 116, items: [{ sku: 'SW-PRO', qty: 2 }], total: 240 }, 10],
  ],
};

const employees: Table = {
  name: 'employees',
  columns: [
    ['id', 'integer'],
    ['name', 'text'],
    ['manager_id', 'integer'],
    ['department', 'text'],
    ['salary', 'decimal'],
    ['hired_on', 'date'],
  ],
  rows: [
    [1, 'Morgan', null, 'exec', 250000, '2019-01-07'],
    [2, 'Riley', 1, 'engineering', 180000, '2019-06-01'],
    [3, 'Sam', 1, 'sales', 150000, '2020-02-17'],
    [4, 'Alex', 2, 'engineering', 120000, '2020-09-01'],
    [5, 'Jordan', 2, 'engineering', 120000, '2021-03-15'],
    [6, 'Casey', 3, 'sales', 95000, '2021-11-30'],
    [7, 'Taylor', 4, 'engineering', 98000.5, '2022-08-08'],
    [8, 'Jamie', 6, 'sales', 70000, '2023-01-09'],
    [9, 'Quinn', 4, null, null, '2024-02-29'],
  ],
};

export const dataset: readonly Table[] = [customers, products, orders, orderItems, events, employees];
