// models placeholder
