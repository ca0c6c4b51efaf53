export { translatePostgres, type Translation } from './translate';
