import { render } from 'preact';
import './styles/console.css';
import { api, bearerMiddleware } from './api/client';
import { session } from './session/session';
import { App } from './app';

api.use(bearerMiddleware(session));
void session.start();
render(<App />, document.getElementById('app')!);
