export { translatePostgres } from './translate';
