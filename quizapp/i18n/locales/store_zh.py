"""中文：数据库无法使用的原因（quizapp.store.errors.DatabaseError 中常见的几种）。键与 `store_en.py` 一致。"""

MESSAGES: dict[str, str] = {
    "store.not_sqlite": "{path} 不是 quizapp 数据库（不是 SQLite 文件）",
    "store.not_quizapp": "{path} 是 SQLite 文件，但不是 quizapp 数据库",
    "store.not_quizapp_detail": "{path} 不是 quizapp 数据库（{detail}）",
    "store.schema_too_new": "{path} 由更新版本的 quizapp 写入（schema {revision}）；请先升级 quizapp 再打开",
    "store.locked": "{path} 被另一个程序锁定；请关闭该程序后重试",
    "store.no_data": "{path} 还没有 quizapp 数据",
    "store.needs_upgrade": "{path} 需要先升级（运行 `quizapp db upgrade`）",
    "store.busy": "数据库正忙（另一个 quizapp 正在写入）；请重试",
    "store.busy_importing": "数据库正忙（另一个 quizapp 正在导入，已完成 {percent}%）；请重试",
    "store.damaged": "{path} 已损坏（{detail}）；运行 `quizapp db check` 查看详情",
    "store.disk_full": "{path} 所在的磁盘已满；请腾出空间（quizapp 会重试）",
    "store.cannot_read": "无法读取 {path}（{detail}）",
    "store.pg_not_quizapp": "{path} 中有数据表，但不是 quizapp 数据库",
    "store.connection_lost": "与 {url} 的连接已断开（{detail}）；未保存任何内容",
    "store.pg_unreachable": "无法使用 {url}（{detail}）",
    "store.pg_no_driver": "使用 PostgreSQL 需要 psycopg：pip install 'quizapp[postgres]'",
    "store.pg_no_dump": "未安装 pg_dump（Debian：apt-get install postgresql-client）；未写入备份",
    "store.pg_dump_failed": "pg_dump 失败（{detail}）；未写入备份",
}
